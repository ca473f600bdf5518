//! Stage 11, checks: invariants and counts over a built world (`stats`), digests over raw
//! IEEE bytes (`digest`), what a solve will cost before it runs (`budget`), the named
//! probes (`probe`) and the headline figures (`figures`) — apart from the stages they
//! measure.

pub mod budget;
pub mod digest;
pub mod figures;
pub mod probe;
pub mod stats;
