//! The sea's wave trains: four Gerstner trains per world, and the storm crest they imply.
//!
//! The same parameter block feeds the CPU wave sum and the ocean shader's uniforms, so a
//! floating object rides the crest the eye sees. The drainage's lake/bay rule reads the
//! storm crest: a lake whose level is under it would be overrun by the sea.

use crate::rng::SplitMix64;
use crate::settings::WorldSettings;

/// One Gerstner wave train on the local tangent plane.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WaveTrain {
    /// Direction of travel, radians east of north on the tangent plane.
    pub direction_rad: f64,
    /// Crest-to-crest distance, metres.
    pub wavelength_m: f64,
    /// Crest height above the still surface, metres.
    pub amplitude_m: f64,
    /// Gerstner steepness (0: sine wave, 1: cusped crests).
    pub steepness: f64,
}

/// How much higher than the everyday trains the sea stands in a storm.
pub const STORM_FACTOR: f64 = 2.5;

/// A world's sea state: four wave trains drawn from its seed.
#[derive(Debug, Clone, PartialEq)]
pub struct SeaState {
    /// The trains, longest first.
    pub trains: [WaveTrain; 4],
}

impl SeaState {
    /// The wave trains of `settings`' world (seeded; the same every run).
    pub fn for_world(settings: &WorldSettings) -> Self {
        let mut rng = SplitMix64::new(settings.seed, 5);
        let base = rng.range(0.0, std::f64::consts::TAU);
        let spec = [(42.0, 0.45, 0.55), (23.0, 0.25, 0.5), (13.0, 0.14, 0.45), (7.0, 0.07, 0.4)];
        let trains = spec.map(|(wavelength, amplitude, steepness)| WaveTrain {
            direction_rad: (base + rng.range(-0.6, 0.6)).rem_euclid(std::f64::consts::TAU),
            wavelength_m: wavelength * rng.range(0.85, 1.15),
            amplitude_m: amplitude * rng.range(0.85, 1.15),
            steepness,
        });
        SeaState { trains }
    }

    /// The highest the sea can stand above its still level in a storm, metres: every crest
    /// aligned, times [`STORM_FACTOR`].
    pub fn storm_crest_m(&self) -> f64 {
        STORM_FACTOR * self.trains.iter().map(|t| t.amplitude_m).sum::<f64>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn storm_crest_is_a_few_metres_and_seeded() {
        let w = crate::testkit::world("home");
        let a = SeaState::for_world(&w);
        assert_eq!(a, SeaState::for_world(&w));
        let crest = a.storm_crest_m();
        assert!((1.5..3.5).contains(&crest), "{crest}");
        let mut other = w.clone();
        other.seed += 1;
        assert_ne!(SeaState::for_world(&other), a);
    }
}
