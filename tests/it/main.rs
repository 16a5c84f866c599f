//! Integration tests: the real `maxconnect4` executable, driven as users and
//! rival programs drive it, plus properties of the library checked on many
//! random positions.

mod board_file;
#[cfg(target_os = "linux")]
mod containment;
mod endgame;
mod engine;
mod interactive;
mod one_move;
mod properties;
#[cfg(target_os = "linux")]
mod referee;
#[cfg(target_os = "linux")]
mod replay;
mod report;
#[cfg(target_os = "linux")]
mod tournament;
mod util;
