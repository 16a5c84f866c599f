//! Integration tests: the real `maxconnect4` executable, driven as users and
//! rival programs drive it, plus properties of the library checked on many
//! random positions.

mod analyse;
mod annotate;
mod architecture;
mod arguments;
mod board_file;
mod book;
#[cfg(target_os = "linux")]
mod book_shards;
#[cfg(unix)]
mod bots;
mod classic;
#[cfg(target_os = "linux")]
mod connectx;
#[cfg(target_os = "linux")]
mod containment;
mod endgame;
mod engine;
#[cfg(target_os = "linux")]
mod files;
mod fuzz;
#[cfg(target_os = "linux")]
mod games;
#[cfg(target_os = "linux")]
mod hostile;
#[cfg(target_os = "linux")]
mod hosting;
mod interactive;
#[cfg(target_os = "linux")]
mod limits;
#[cfg(target_os = "linux")]
mod names;
mod one_move;
#[cfg(unix)]
mod output_links;
#[cfg(unix)]
mod page;
#[cfg(unix)]
mod perfect;
#[cfg(unix)]
mod progress;
mod properties;
mod readme;
#[cfg(target_os = "linux")]
mod records;
#[cfg(target_os = "linux")]
mod referee;
#[cfg(target_os = "linux")]
mod replay;
mod report;
mod report_startup;
#[cfg(target_os = "linux")]
mod results_page;
#[cfg(unix)]
mod serve;
#[cfg(target_os = "linux")]
mod shards;
#[cfg(unix)]
mod solve_api;
#[cfg(target_os = "linux")]
mod students;
#[cfg(target_os = "linux")]
mod tournament;
mod util;
#[cfg(unix)]
mod webdriver;
