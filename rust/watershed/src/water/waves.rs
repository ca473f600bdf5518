//! The sea's wave trains: four Gerstner trains per world, their sum on the CPU, the storm
//! crest they imply, and the same numbers as shader uniforms.
//!
//! Each train travels along a fixed direction in planet space; at any point of the sea its
//! wave vector is that direction projected onto the local tangent plane, and its phase is
//! `k · (D · P) - ω t` for the point `P` in metres. The ocean shader evaluates the same
//! expression with the same uniforms and the same clock (seconds), so a floating object
//! rides the crest the eye sees. The drainage's lake/bay rule reads the storm crest.

use crate::math::rng::SplitMix64;
use crate::math::sphere;
use crate::settings::WorldSettings;
use glam::DVec3;

/// Gravity used for deep-water dispersion, m/s².
pub const GRAVITY_M_S2: f64 = 9.81;
/// How much higher than the everyday trains the sea stands in a storm.
pub const STORM_FACTOR: f64 = 2.5;

/// One Gerstner wave train.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WaveTrain {
    /// Direction of travel in planet space (unit vector); on the sea it is projected onto
    /// the local tangent plane.
    pub direction: DVec3,
    /// Crest-to-crest distance, metres.
    pub wavelength_m: f64,
    /// Crest height above the still surface, metres.
    pub amplitude_m: f64,
    /// Gerstner steepness (0: sine wave, 1: cusped crests).
    pub steepness: f64,
}

impl WaveTrain {
    /// Wave number, radians per metre.
    pub fn k(&self) -> f64 {
        std::f64::consts::TAU / self.wavelength_m
    }

    /// Angular frequency from deep-water dispersion `ω = √(g k)`, radians per second.
    pub fn omega(&self) -> f64 {
        (GRAVITY_M_S2 * self.k()).sqrt()
    }

    /// Phase speed `ω / k`, metres per second.
    pub fn speed_m_s(&self) -> f64 {
        self.omega() / self.k()
    }

    /// Phase at point `p` (metres from the planet's centre) and time `t` (seconds).
    fn phase(&self, p: DVec3, t: f64) -> f64 {
        self.k() * self.direction.dot(p) - self.omega() * t
    }
}

/// A world's sea state: four wave trains drawn from its seed.
#[derive(Debug, Clone, PartialEq)]
pub struct SeaState {
    /// Still sea level, metres above the datum.
    pub sea_level_m: f64,
    /// Radius of the datum sphere, metres.
    pub radius_m: f64,
    /// The trains, longest first.
    pub trains: [WaveTrain; 4],
}

impl SeaState {
    /// The wave trains of `settings`' world (seeded; the same every run).
    pub fn for_world(settings: &WorldSettings) -> Self {
        let mut rng = SplitMix64::new(settings.seed, 5);
        let prevailing = sphere::random_unit(&mut rng);
        let spec = [(42.0, 0.45, 0.55), (23.0, 0.25, 0.5), (13.0, 0.14, 0.45), (7.0, 0.07, 0.4)];
        let trains = spec.map(|(wavelength, amplitude, steepness)| WaveTrain {
            direction: sphere::unit(prevailing + sphere::random_unit(&mut rng) * 0.6),
            wavelength_m: wavelength * rng.range(0.85, 1.15),
            amplitude_m: amplitude * rng.range(0.85, 1.15),
            steepness,
        });
        SeaState { sea_level_m: settings.sea_level_m, radius_m: settings.radius_m, trains }
    }

    /// The highest the sea can stand above its still level in a storm, metres: every crest
    /// aligned, times [`STORM_FACTOR`].
    pub fn storm_crest_m(&self) -> f64 {
        STORM_FACTOR * self.trains.iter().map(|t| t.amplitude_m).sum::<f64>()
    }

    /// Where the wave sum moves the still-water point above direction `dir` at time `t`:
    /// (offset along the tangent plane, metres; height above the still level, metres).
    /// This is the ocean shader's vertex displacement.
    pub fn displacement(&self, dir: DVec3, t: f64) -> (DVec3, f64) {
        let up = sphere::unit(dir);
        let p = up * (self.radius_m + self.sea_level_m);
        let mut side = DVec3::ZERO;
        let mut height = 0.0;
        for w in &self.trains {
            let tangent = w.direction - up * w.direction.dot(up);
            let theta = w.phase(p, t);
            // Gerstner: the crest pulls water towards it; the steepness scales the pull.
            side += tangent * (w.steepness * w.amplitude_m * libm::sin(theta));
            height += w.amplitude_m * libm::cos(theta);
        }
        (side, height)
    }

    /// Height of the moving sea surface above the datum over direction `dir` at time `t`,
    /// metres: the displaced surface, found by walking back to the still point whose
    /// displaced position lies over `dir` (three fixed-point steps).
    pub fn surface_height_m(&self, dir: DVec3, t: f64) -> f64 {
        let target = sphere::unit(dir);
        let r = self.radius_m + self.sea_level_m;
        let mut source = target;
        for _ in 0..3 {
            let (side, _) = self.displacement(source, t);
            source = sphere::unit(target - side / r);
        }
        self.sea_level_m + self.displacement(source, t).1
    }

    /// The trains as shader uniforms: per train `wave_dir_i` (vec3, planet space) and
    /// `wave_i` (vec4: wavelength m, amplitude m, steepness, speed m/s), plus the still
    /// level and datum radius. Names and order are what the ocean shader declares.
    pub fn shader_uniforms(&self) -> Vec<(String, Vec<f64>)> {
        let mut out = vec![
            ("sea_level_m".to_owned(), vec![self.sea_level_m]),
            ("radius_m".to_owned(), vec![self.radius_m]),
            ("gravity".to_owned(), vec![GRAVITY_M_S2]),
        ];
        for (i, w) in self.trains.iter().enumerate() {
            out.push((format!("wave_dir_{i}"), w.direction.to_array().to_vec()));
            out.push((format!("wave_{i}"), vec![w.wavelength_m, w.amplitude_m, w.steepness, w.speed_m_s()]));
        }
        out
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

    #[test]
    fn deep_water_dispersion() {
        let w = WaveTrain { direction: DVec3::X, wavelength_m: 10.0, amplitude_m: 1.0, steepness: 0.5 };
        // c = √(g λ / 2π): a 10 m wave runs at about 3.95 m/s.
        assert!((w.speed_m_s() - (GRAVITY_M_S2 * 10.0 / std::f64::consts::TAU).sqrt()).abs() < 1e-12);
    }

    #[test]
    fn the_surface_stays_within_the_amplitudes_and_moves() {
        let sea = SeaState::for_world(&crate::testkit::world("home"));
        let sum: f64 = sea.trains.iter().map(|t| t.amplitude_m).sum();
        let dir = sphere::direction(10.0, 20.0);
        let heights: Vec<f64> = (0..50).map(|k| sea.surface_height_m(dir, k as f64 * 0.37)).collect();
        assert!(heights.iter().all(|h| (h - sea.sea_level_m).abs() <= sum + 1e-9));
        assert!(heights.windows(2).any(|w| w[0] != w[1]), "the sea moves");
        assert!(sum * STORM_FACTOR > sum);
    }

    #[test]
    fn the_surface_height_is_the_displaced_vertex() {
        // Walk a still point through the displacement and ask for the height above where it
        // lands: the inversion must find it (to well under a millimetre).
        let sea = SeaState::for_world(&crate::testkit::world("home"));
        let r = sea.radius_m + sea.sea_level_m;
        for (k, &t) in [0.0, 1.3, 7.9].iter().enumerate() {
            let still = sphere::direction(5.0 + k as f64, -30.0);
            let (side, h) = sea.displacement(still, t);
            let landed = sphere::unit(still * r + side);
            assert!((sea.surface_height_m(landed, t) - (sea.sea_level_m + h)).abs() < 1e-3);
        }
    }
}
