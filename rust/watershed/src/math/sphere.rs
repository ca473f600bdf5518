//! Geometry on the unit sphere: latitude/longitude, uniform and Fibonacci directions.
//!
//! Axes follow Godot: +Y is north, longitude 0 faces +Z and longitude +90° faces +X.

use crate::math::rng::SplitMix64;
use glam::DVec3;

/// The unit direction at `lat_deg` north and `lon_deg` east, both in degrees.
pub fn direction(lat_deg: f64, lon_deg: f64) -> DVec3 {
    direction_rad(lat_deg.to_radians(), lon_deg.to_radians())
}

/// The unit direction at `lat` north and `lon` east, both in radians.
pub(crate) fn direction_rad(lat: f64, lon: f64) -> DVec3 {
    let c = libm::cos(lat);
    DVec3::new(c * libm::sin(lon), libm::sin(lat), c * libm::cos(lon))
}

/// Latitude and longitude of a direction, in radians (`lat` in ±π/2, `lon` in ±π).
pub fn lat_lon_rad(dir: DVec3) -> (f64, f64) {
    let d = unit(dir);
    (lat_rad(d), libm::atan2(d.x, d.z))
}

/// Latitude of `dir` in radians, [`lat_lon_rad`]'s first half.
pub fn lat_rad(dir: DVec3) -> f64 {
    libm::asin(unit(dir).y.clamp(-1.0, 1.0))
}

/// `dir` scaled to unit length; the zero or non-finite vector becomes north (+Y).
pub fn unit(dir: DVec3) -> DVec3 {
    let len2 = dir.length_squared();
    if len2.is_finite() && len2 > 0.0 {
        dir / len2.sqrt()
    } else {
        DVec3::Y
    }
}

/// East and north along the ground at unit direction `up` (unit tangents; at the poles,
/// +X stands in for east).
pub fn east_north(up: DVec3) -> (DVec3, DVec3) {
    let east = DVec3::Y.cross(up);
    let east = if east.length_squared() < 1e-12 { DVec3::X } else { east.normalize() };
    (east, up.cross(east))
}

/// Where the ray from `origin` along `ray` first meets the sphere of `radius` about the
/// origin (from inside, where it leaves it); `None` when it misses, points away, or `ray`
/// has no direction.
pub fn ray_sphere(origin: DVec3, ray: DVec3, radius: f64) -> Option<DVec3> {
    let ray = checked_unit(ray)?;
    let b = origin.dot(ray);
    let disc = b * b - (origin.length_squared() - radius * radius);
    if disc < 0.0 {
        return None;
    }
    let root = disc.sqrt();
    [-b - root, -b + root].into_iter().find(|&t| t >= 0.0).map(|t| origin + ray * t)
}

/// `dir` scaled to unit length, or `None` for a zero, NaN or infinite vector (one that has
/// no direction). Callers facing user input use this instead of [`unit()`]'s fallback.
pub fn checked_unit(dir: DVec3) -> Option<DVec3> {
    let len2 = dir.length_squared();
    (dir.is_finite() && len2.is_finite() && len2 > 0.0).then(|| dir / len2.sqrt())
}

/// Point `i` of `n` on a Fibonacci sphere: equal area per point, no seam at the poles.
///
/// # Panics
/// Never; `i >= n` extrapolates past the south pole's last point and is meaningless.
pub fn fibonacci(i: usize, n: usize) -> DVec3 {
    let y = fibonacci_y(i, n);
    let r = (1.0 - y * y).max(0.0).sqrt();
    // One argument reduction for both: the bits of `libm::sin` and `libm::cos` on 0..2π.
    let (sin, cos) = libm::sincos(fibonacci_angle(i));
    DVec3::new(r * sin, y, r * cos)
}

/// The height (`y`, -1..1) of point `i` of `n` on a Fibonacci sphere, as [`fibonacci`] has it.
pub(crate) fn fibonacci_y(i: usize, n: usize) -> f64 {
    1.0 - (2.0 * i as f64 + 1.0) / n as f64
}

/// How far round the `i`th Fibonacci point lies, in turns (0..1) from +Z towards +X: `i`
/// over the golden ratio, wrapped to one turn (fract keeps precision for millions of points).
pub(crate) fn fibonacci_turn(i: usize) -> f64 {
    let turns = i as f64 * 0.618_033_988_749_895;
    // `fract` by a cast, which truncates as it does (exact below 2⁵³) without a libm call.
    turns - turns as u64 as f64
}

/// Longitude of the `i`th Fibonacci point, radians in 0..2π.
fn fibonacci_angle(i: usize) -> f64 {
    std::f64::consts::TAU * fibonacci_turn(i)
}

/// `n` independent uniform directions drawn from `seed` (the digest's sample).
pub fn random_directions(seed: u64, n: usize) -> Vec<DVec3> {
    let mut rng = SplitMix64::new(seed, 0xD1_6E57);
    (0..n).map(|_| random_unit(&mut rng)).collect()
}

/// A direction drawn uniformly over the sphere from `rng` (two draws: height, then angle).
pub(crate) fn random_unit(rng: &mut SplitMix64) -> DVec3 {
    let y = rng.range(-1.0, 1.0);
    let phi = rng.range(0.0, std::f64::consts::TAU);
    let r = (1.0 - y * y).max(0.0).sqrt();
    DVec3::new(r * libm::sin(phi), y, r * libm::cos(phi))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `libm::sincos` gives the bits of `libm::sin` and `libm::cos` over the angles
    /// [`fibonacci`] takes: every point's on spheres of up to a million (a point's angle
    /// does not depend on the sphere's size), the smallest angles and many random ones in
    /// 0..2π.
    #[test]
    fn sincos_gives_the_bits_of_sin_and_cos() {
        let mut angles: Vec<f64> = (0..1_000_000).map(fibonacci_angle).collect();
        let mut rng = SplitMix64::new(4, 0);
        angles.extend((0..200_000).map(|_| rng.range(0.0, std::f64::consts::TAU)));
        angles.extend([0.0, f64::from_bits(1), 1e-300, 1e-9, 1.5e-8, 2e-8, std::f64::consts::FRAC_PI_4]);
        for phi in angles {
            let (sin, cos) = libm::sincos(phi);
            assert_eq!(
                [sin, cos].map(f64::to_bits),
                [libm::sin(phi), libm::cos(phi)].map(f64::to_bits),
                "{phi:e}"
            );
        }
    }

    #[test]
    fn lat_lon_round_trips() {
        for (lat, lon) in [(0.0, 0.0), (45.0, 90.0), (-30.0, -120.0), (89.0, 179.0)] {
            let (la, lo) = lat_lon_rad(direction(lat, lon));
            assert!((la.to_degrees() - lat).abs() < 1e-9, "{lat} {lon}");
            assert!((lo.to_degrees() - lon).abs() < 1e-9, "{lat} {lon}");
        }
        assert!((direction(0.0, 0.0) - DVec3::Z).length() < 1e-15);
        assert!((direction(0.0, 90.0) - DVec3::X).length() < 1e-15);
    }

    #[test]
    fn fibonacci_points_are_unit_and_balanced() {
        let n = 10_000;
        let mut sum = DVec3::ZERO;
        for i in 0..n {
            let p = fibonacci(i, n);
            assert!((p.length() - 1.0).abs() < 1e-12);
            sum += p;
        }
        // Equal-area points have their centroid at the centre.
        assert!(sum.length() / (n as f64) < 1e-3, "{sum}");
    }

    #[test]
    fn degenerate_directions_become_north() {
        assert_eq!(unit(DVec3::ZERO), DVec3::Y);
        assert_eq!(unit(DVec3::new(f64::NAN, 0.0, 1.0)), DVec3::Y);
    }
}
