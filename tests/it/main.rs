//! Integration tests: the real `maxconnect4` executable, driven as users and
//! rival programs drive it, plus properties of the library checked on many
//! random positions.

mod board_file;
mod endgame;
mod interactive;
mod one_move;
mod properties;
mod referee;
mod replay;
mod tournament;
mod util;
