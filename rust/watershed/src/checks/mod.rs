//! Stage 7, checks: invariants and counts over a built world (`stats`), digests over raw
//! IEEE bytes (`digest`), what a solve will cost before it runs (`budget`) and the named
//! probes (`probe`) — apart from the stages they measure.

pub mod budget;
pub mod digest;
pub mod probe;
pub mod stats;
