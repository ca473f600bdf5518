//! A river seen from the side: a long profile along the main stream through a reach and a
//! cross-section through its middle, drawn as lines (natural ground brown, carved ground
//! dark, bed blue, water surface light blue where wet, sea level pale blue, falls red).

use crate::carve::{ReachEnd, ReachId};
use crate::ground::topology::Topology;
use crate::math::sphere;
use crate::output::chart::{framed, Axis, Key};
use crate::output::look::to_rgb8;
use crate::output::render::{paint_segment, Image};
use crate::water::heightmap::HeightmapWorld;
use crate::water::world::World;

const NATURAL: [f64; 3] = [0.62, 0.47, 0.30];
const CARVED: [f64; 3] = [0.20, 0.18, 0.16];
const BED: [f64; 3] = [0.15, 0.40, 0.85];
const SEA: [f64; 3] = [0.55, 0.75, 0.95];
const FALL: [f64; 3] = [0.85, 0.15, 0.10];
const WATER: [f64; 3] = [0.30, 0.70, 0.95];
const AXIS: [f64; 3] = [0.75, 0.75, 0.75];
/// Reaches in the long profile (up to half of them upstream of the chosen one).
const PROFILE_REACHES: usize = 16;
/// Pixels kept clear inside each edge of a plot.
const PAD: f64 = 12.0;

/// A `width` × `height` picture: the long profile on the left two thirds, the cross-section
/// through the reach's middle on the right. `None` for an unknown reach.
pub fn render_section(world: &World, id: ReachId, width: usize, height: usize) -> Option<Image> {
    let first = world.terrain.carve.reaches.get(id.0 as usize)?;
    let (width, height) = (width.max(64), height.max(64));
    let mut image = Image { width, height, rgb: vec![250; width * height * 3] };
    let split = width * 2 / 3;

    // Long profile along the main stream through the reach: up its largest tributaries,
    // then down to where it ends.
    let carve = &world.terrain.carve;
    let touching = |node: usize| carve.reaches_at(node).iter().map(|&i| &carve.reaches[i as usize]);
    let mut chain = vec![first];
    while chain.len() < PROFILE_REACHES / 2 {
        let top = chain[chain.len() - 1];
        let up = touching(top.from.index())
            .filter(|r| r.to == top.from)
            .max_by(|a, b| a.catchment_m2.total_cmp(&b.catchment_m2));
        match up {
            Some(r) => chain.push(r),
            None => break,
        }
    }
    chain.reverse();
    while chain.len() < PROFILE_REACHES {
        let last = chain[chain.len() - 1];
        match carve.reach_from(last.to.index()) {
            Some(next) if last.ends_in == ReachEnd::River => chain.push(&carve.reaches[next.0 as usize]),
            _ => break,
        }
    }
    let mut lines: [Vec<(f64, f64)>; 4] = Default::default();
    let mut falls = Vec::new();
    let mut s0 = 0.0;
    for reach in chain {
        for k in 0..=reach.pieces() {
            let t = k as f64 / reach.pieces() as f64;
            let dir = reach.chord_point(t);
            let (g, n) = world.terrain.ground_and_natural(dir);
            let s = s0 + t * reach.length_m;
            lines[0].push((s, n));
            lines[1].push((s, g));
            lines[2].push((s, reach.beds[k]));
            lines[3].push((s, world.water().level_at(dir).unwrap_or(f64::NAN)));
        }
        if reach.fall {
            falls.push(s0);
        }
        s0 += reach.length_m;
    }
    let sea = world.terrain.settings.sea.then_some(world.terrain.settings.sea_level_m);
    plot(&mut image, (0, split), &lines, sea, &falls);

    // Cross-section through the middle, three half-widths each side.
    let mid = first.middle();
    let along = sphere::unit(first.end - first.start);
    let across = sphere::unit(mid.cross(along));
    let reach_m = 3.0 * first.half_width_m;
    let mut cross: [Vec<(f64, f64)>; 4] = Default::default();
    for k in 0..=96 {
        let x = -reach_m + 2.0 * reach_m * k as f64 / 96.0;
        let dir = mid + across * (x / world.terrain.settings.radius_m);
        let (g, n) = world.terrain.ground_and_natural(dir);
        cross[0].push((x, n));
        cross[1].push((x, g));
        cross[2].push((x, first.bed_at(first.length_m / 2.0)));
        cross[3].push((x, world.water().level_at(dir).unwrap_or(f64::NAN)));
    }
    plot(&mut image, (split, width), &cross, sea, &[]);
    Some(image)
}

/// A `width` × `height` long profile of a heightmap world's main river
/// ([`HeightmapWorld::main_river`]) from its source to its mouth: natural ground, carved
/// ground (the bed along the centre line) and the water. `None` without rivers.
pub fn render_grid_profile(world: &HeightmapWorld, width: usize, height: usize) -> Option<Image> {
    let path = world.main_river();
    if path.len() < 2 {
        return None;
    }
    let (width, height) = (width.max(64), height.max(64));
    let mut image = Image { width, height, rgb: vec![250; width * height * 3] };
    let mut lines: [Vec<(f64, f64)>; 4] = Default::default();
    let mut s = 0.0;
    for (k, &i) in path.iter().enumerate() {
        if k > 0 {
            s += world.grid.distance_m(path[k - 1], i);
        }
        let wet = world.level[i] > world.ground[i];
        lines[0].push((s, world.natural[i]));
        lines[1].push((s, world.ground[i]));
        lines[3].push((s, if wet { world.level[i] } else { f64::NAN }));
    }
    let sea = world.params.sea_level_m;
    let (x0, x1, y0, y1) = plot(&mut image, (0, width), &lines, sea, &[]);
    // plot() keeps PAD pixels clear inside every edge: the axes reach over them.
    let (dx, dy) = ((x1 - x0) / (width as f64 - 2.0 * PAD), (y1 - y0) / (height as f64 - 2.0 * PAD));
    let x = Axis::new("distance along the river", x0 - PAD * dx, x1 + PAD * dx);
    let y = Axis::new("height", y1 + PAD * dy, y0 - PAD * dy);
    let mut legend = vec![
        Key::Line(to_rgb8(NATURAL), "ground before carving".into()),
        Key::Line(to_rgb8(CARVED), "carved ground".into()),
        Key::Line(to_rgb8(WATER), "water".into()),
    ];
    if sea.is_some_and(|s| (y0..=y1).contains(&s)) {
        legend.push(Key::Line(to_rgb8(SEA), "sea level".into()));
    }
    let title = format!("main river (longest of the largest basin): {:.2} km", s / 1000.0);
    Some(framed(&image, &title, &x, &y, &legend))
}

/// Draws the four lines (natural, carved, bed, water; NaN water where dry) in the columns
/// `cols` of the image, scaled to fit PAD pixels inside its edges, with the sea level and
/// fall positions when given. Returns the ranges drawn: (x0, x1, y0, y1), metres.
fn plot(
    image: &mut Image,
    cols: (usize, usize),
    lines: &[Vec<(f64, f64)>; 4],
    sea: Option<f64>,
    falls: &[f64],
) -> (f64, f64, f64, f64) {
    let points = lines.iter().flatten().filter(|p| p.1.is_finite());
    let (x0, x1) =
        points.clone().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| (a.min(p.0), b.max(p.0)));
    let (mut y0, mut y1) =
        points.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| (a.min(p.1), b.max(p.1)));
    let pad = ((y1 - y0) * 0.08).max(1.0);
    (y0, y1) = (y0 - pad, y1 + pad);
    let (left, right) = (cols.0 as f64 + PAD, cols.1 as f64 - PAD);
    let (top, bottom) = (PAD, image.height as f64 - PAD);
    let px = |x: f64| left + (x - x0) / (x1 - x0).max(1e-9) * (right - left);
    let py = |y: f64| bottom - (y - y0) / (y1 - y0).max(1e-9) * (bottom - top);
    paint_segment(image, (left, bottom), (right, bottom), 1.0, AXIS);
    paint_segment(image, (left, top), (left, bottom), 1.0, AXIS);
    if let Some(s) = sea.filter(|s| (y0..=y1).contains(s)) {
        paint_segment(image, (left, py(s)), (right, py(s)), 1.5, SEA);
    }
    for &f in falls {
        paint_segment(image, (px(f), top), (px(f), bottom), 1.0, FALL);
    }
    let styles = [(NATURAL, 2.0), (CARVED, 1.5), (BED, 1.5), (WATER, 1.5)];
    for (line, (colour, width)) in lines.iter().zip(styles) {
        for w in line.windows(2).filter(|w| w[0].1.is_finite() && w[1].1.is_finite()) {
            paint_segment(image, (px(w[0].0), py(w[0].1)), (px(w[1].0), py(w[1].1)), width, colour);
        }
    }
    (x0, x1, y0, y1)
}
