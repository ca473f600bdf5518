//! A regular W×H grid with eight neighbours per cell (D8), for heightmap worlds.

use crate::ground::topology::Topology;

/// A row-major grid of square cells; cell `i` is at row `i / width`, column `i % width`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Grid {
    /// Cells per row.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Edge length of a cell, metres.
    pub cell_m: f64,
}

/// Neighbour offsets (row, column) in ascending index order.
const D8: [(isize, isize); 8] = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)];

impl Topology for Grid {
    fn len(&self) -> usize {
        self.width * self.height
    }

    fn neighbors(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let (row, col) = ((i / self.width) as isize, (i % self.width) as isize);
        let (w, h) = (self.width as isize, self.height as isize);
        D8.iter().filter_map(move |&(dr, dc)| {
            let (r, c) = (row + dr, col + dc);
            (r >= 0 && r < h && c >= 0 && c < w).then(|| (r * w + c) as usize)
        })
    }

    fn area_m2(&self, _i: usize) -> f64 {
        self.cell_m * self.cell_m
    }

    fn distance_m(&self, a: usize, b: usize) -> f64 {
        let diagonal = a / self.width != b / self.width && a % self.width != b % self.width;
        if diagonal {
            self.cell_m * std::f64::consts::SQRT_2
        } else {
            self.cell_m
        }
    }

    fn on_edge(&self, i: usize) -> bool {
        let (row, col) = (i / self.width, i % self.width);
        row == 0 || col == 0 || row + 1 == self.height || col + 1 == self.width
    }
}
