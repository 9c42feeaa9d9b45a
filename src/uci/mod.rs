//! The UCI edge: move notation.

pub mod notation;
