//! Stage 7, floating bodies on the solved water: [`hull::Hull`], the buoyancy and drag on a
//! box of sample points from the live water (waves, river and lake levels, flow), and
//! [`boat::Boat`], a boat let go on a river and the drift it takes to the sea or a lake.

pub mod boat;
pub mod hull;
