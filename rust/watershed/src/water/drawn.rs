//! Rivers a designer draws on a heightmap (a curve over the terrain): each is cut into the
//! ground as a bed that falls all the way from its source to its mouth and lies below every
//! cell beside it, and its source is given a spring as large as the river threshold, so the
//! drainage solve itself runs the water along it and makes it a river — the rest of the map
//! then drains into it like into any other valley.

use crate::ground::grid::Grid;
use crate::ground::topology::Topology;
use std::collections::{HashMap, HashSet};

/// The least fall of a drawn bed from one of its cells to the next, metres.
pub const DRAWN_FALL_M: f64 = 0.01;
/// A drawn river's cells are cut this far below the lowest cell beside them, metres.
pub const DRAWN_CUT_M: f64 = 0.5;
/// Steps a drawn curve is sampled at, in cells (under half a cell, so the cells it passes
/// come out 8-connected).
const SAMPLE_CELLS: f64 = 0.25;

/// The cells a curve passes over, in order and 8-connected, for `points` in cell units (x
/// along a row, y down the rows; cell (c, r)'s centre at (c, r)). The curve runs from the
/// end whose ground in `heights` is higher to the lower one; it stops where it leaves the
/// map, at the first cell under `sea_level_m` (`None`: no sea) and, with `edge_outlets`, at
/// the first cell on the map's rim (where it begins on the rim, it begins at its first
/// cell inside); a loop is cut out where the curve comes back over a cell it passed, and
/// the course goes from each cell to the furthest later one beside it (no corners, no
/// hairpins for water to cut across).
pub fn drawn_course(
    grid: &Grid,
    heights: &[f64],
    points: &[[f64; 2]],
    sea_level_m: Option<f64>,
    edge_outlets: bool,
) -> Vec<usize> {
    let mut course: Vec<usize> = Vec::new();
    let visit = |cell: Option<usize>, course: &mut Vec<usize>| -> bool {
        let Some(cell) = cell else { return !course.is_empty() };
        let outlet = edge_outlets && grid.on_edge(cell);
        if outlet && course.is_empty() {
            return false;
        }
        if course.last() == Some(&cell) {
            return false;
        }
        if let Some(seen) = course.iter().position(|&c| c == cell) {
            course.truncate(seen + 1);
            return false;
        }
        course.push(cell);
        outlet || sea_level_m.is_some_and(|sea| heights[cell] < sea)
    };
    let cell_at = |p: [f64; 2]| {
        let (c, r) = (p[0].round(), p[1].round());
        let inside = c >= 0.0 && r >= 0.0 && c < grid.width as f64 && r < grid.height as f64;
        inside.then(|| r as usize * grid.width + c as usize)
    };
    let mut points: Vec<[f64; 2]> =
        points.iter().copied().filter(|p| p[0].is_finite() && p[1].is_finite()).collect();
    let ground = |p: &[f64; 2]| cell_at(*p).map(|i| heights[i]);
    if let (Some(first), Some(last)) = (points.first().and_then(ground), points.last().and_then(ground)) {
        if first < last {
            points.reverse();
        }
    }
    'walk: for pair in points.windows(2) {
        let ([x0, y0], [x1, y1]) = (pair[0], pair[1]);
        let steps = ((x1 - x0).hypot(y1 - y0) / SAMPLE_CELLS).ceil().max(1.0) as usize;
        for s in 0..=steps {
            let t = s as f64 / steps as f64;
            if visit(cell_at([x0 + t * (x1 - x0), y0 + t * (y1 - y0)]), &mut course) {
                break 'walk;
            }
        }
    }
    if points.len() == 1 {
        visit(cell_at(points[0]), &mut course);
    }
    short_cut(grid, course)
}

/// `course` with its short cuts taken: from each cell it goes on to the furthest later cell
/// that touches it (8 neighbours), so water running down it never has a way past a cell.
fn short_cut(grid: &Grid, course: Vec<usize>) -> Vec<usize> {
    let at: HashMap<usize, usize> = course.iter().enumerate().map(|(k, &cell)| (cell, k)).collect();
    let mut thin = Vec::with_capacity(course.len());
    let mut k = 0;
    while let Some(&cell) = course.get(k) {
        thin.push(cell);
        k = grid.neighbors(cell).filter_map(|n| at.get(&n).copied()).fold(k + 1, usize::max);
    }
    thin
}

/// Cuts `course` (from [`drawn_course`]) into `heights`: every cell of it [`DRAWN_CUT_M`]
/// below the lowest cell beside it that is not on the course, and at least [`DRAWN_FALL_M`]
/// below the cell before it, so its bed never rises downstream and water beside it runs in.
pub fn cut_course(grid: &Grid, heights: &mut [f64], course: &[usize]) {
    let cells: HashSet<usize> = course.iter().copied().collect();
    let on_course = |c: usize| cells.contains(&c);
    let mut bed = f64::INFINITY;
    for &cell in course {
        let beside =
            grid.neighbors(cell).filter(|&n| !on_course(n)).map(|n| heights[n]).fold(heights[cell], f64::min);
        bed = (beside - DRAWN_CUT_M).min(bed - DRAWN_FALL_M);
        heights[cell] = heights[cell].min(bed);
    }
}

/// A [`Grid`] whose drawn rivers' sources each stand for `spring_m2` more ground than their
/// cell: the drainage then carries at least the river threshold down every drawn course.
pub struct Sprung<'a> {
    /// The grid.
    pub grid: &'a Grid,
    /// The sources, sorted, each once.
    pub sources: Vec<usize>,
    /// The area a source stands for beyond its cell, m².
    pub spring_m2: f64,
}

impl Topology for Sprung<'_> {
    fn len(&self) -> usize {
        self.grid.len()
    }

    fn neighbors(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.grid.neighbors(i)
    }

    fn area_m2(&self, i: usize) -> f64 {
        let spring = if self.sources.binary_search(&i).is_ok() { self.spring_m2 } else { 0.0 };
        self.grid.area_m2(i) + spring
    }

    fn distance_m(&self, a: usize, b: usize) -> f64 {
        self.grid.distance_m(a, b)
    }

    fn on_edge(&self, i: usize) -> bool {
        self.grid.on_edge(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slope(width: usize, height: usize) -> (Grid, Vec<f64>) {
        let grid = Grid { width, height, cell_m: 1.0 };
        let heights =
            (0..width * height).map(|i| 10.0 + (i % width) as f64 * 0.5 + (i / width) as f64 * 0.1).collect();
        (grid, heights)
    }

    #[test]
    fn a_course_is_8_connected_and_runs_downhill_from_its_higher_end() {
        let (grid, heights) = slope(20, 12);
        let course = drawn_course(&grid, &heights, &[[1.0, 1.0], [18.2, 9.7]], None, false);
        assert_eq!(course.first(), Some(&(10 * 20 + 18)), "starts at the higher end");
        assert_eq!(course.last(), Some(&(20 + 1)));
        for pair in course.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let (dr, dc) = ((a / 20).abs_diff(b / 20), (a % 20).abs_diff(b % 20));
            assert!(dr <= 1 && dc <= 1 && a != b, "{a} then {b}");
        }
    }

    #[test]
    fn a_course_stops_at_the_sea_and_cuts_loops() {
        let (grid, mut heights) = slope(10, 3);
        heights[10 + 3] = -1.0;
        let to_sea = drawn_course(&grid, &heights, &[[8.0, 1.0], [0.0, 1.0]], Some(0.0), false);
        assert_eq!(to_sea, vec![18, 17, 16, 15, 14, 13]);
        let looped = drawn_course(
            &grid,
            &heights,
            &[[8.0, 1.0], [5.0, 1.0], [5.0, 2.0], [6.0, 2.0], [6.0, 1.0], [2.0, 1.0]],
            None,
            false,
        );
        assert_eq!(looped, vec![18, 17, 16, 15, 14, 13, 12]);
    }

    #[test]
    fn with_edge_outlets_a_course_begins_inside_and_ends_at_the_rim() {
        let (grid, heights) = slope(10, 3);
        let course = drawn_course(&grid, &heights, &[[9.0, 1.0], [0.0, 1.0]], None, true);
        assert_eq!(course, vec![18, 17, 16, 15, 14, 13, 12, 11, 10]);
    }

    #[test]
    fn a_course_cuts_corners_and_hairpins() {
        let (grid, heights) = slope(10, 10);
        let course = drawn_course(&grid, &heights, &[[6.0, 1.0], [6.0, 3.0], [2.0, 3.0]], None, false);
        assert_eq!(course, vec![16, 26, 35, 34, 33, 32]);
        let hairpin =
            drawn_course(&grid, &heights, &[[8.0, 1.0], [8.0, 5.0], [6.0, 5.0], [6.0, 1.0]], None, false);
        assert_eq!(hairpin, vec![18, 28, 38, 48, 57, 46, 36, 26, 16]);
        let narrow =
            drawn_course(&grid, &heights, &[[8.0, 1.0], [8.0, 5.0], [7.0, 5.0], [7.0, 1.0]], None, false);
        assert_eq!(narrow, vec![18, 17], "legs side by side: the water crosses at once");
    }

    #[test]
    fn a_cut_bed_never_rises_and_lies_below_its_banks() {
        let (grid, mut heights) = slope(16, 9);
        heights[4 * 16 + 6] = 2.0;
        let before = heights.clone();
        let course = drawn_course(&grid, &heights, &[[14.0, 4.0], [1.0, 4.0]], None, false);
        cut_course(&grid, &mut heights, &course);
        for pair in course.windows(2) {
            assert!(heights[pair[1]] <= heights[pair[0]] - DRAWN_FALL_M, "bed rises at {}", pair[1]);
        }
        for &cell in &course {
            for n in grid.neighbors(cell).filter(|n| !course.contains(n)) {
                assert!(heights[cell] <= heights[n] - DRAWN_CUT_M, "{cell} not below {n}");
            }
        }
        let untouched = (0..heights.len()).filter(|i| !course.contains(i)).all(|i| heights[i] == before[i]);
        assert!(untouched, "only the course is cut");
    }

    #[test]
    fn a_spring_adds_area_at_its_source_only() {
        let (grid, _) = slope(5, 5);
        let sprung = Sprung { grid: &grid, sources: vec![3, 7], spring_m2: 100.0 };
        assert_eq!(sprung.area_m2(7), 101.0);
        assert_eq!(sprung.area_m2(6), 1.0);
        assert_eq!(sprung.neighbors(12).count(), 8);
    }
}
