//! What a tournament's records come to, made together by [`summary`]:
//! [`standings`], a [`crosstable`], [`ratings`], per-player [`figures`], a
//! [`chart`], the [`gradebook`] and the [`page`] to publish.

pub mod chart;
pub mod crosstable;
pub mod figures;
pub mod gradebook;
pub mod page;
pub mod ratings;
pub mod standings;
pub mod summary;

pub use summary::Results;
