//! What the system adds to the runner: Linux's process file descriptors,
//! subreaper and `/proc` ([`linux`]), or stand-ins that add nothing on the
//! other Unix systems (`elsewhere`).

#[cfg(not(target_os = "linux"))]
mod elsewhere;
#[cfg(target_os = "linux")]
mod linux;

#[cfg(not(target_os = "linux"))]
pub use elsewhere::*;
#[cfg(target_os = "linux")]
pub use linux::*;
