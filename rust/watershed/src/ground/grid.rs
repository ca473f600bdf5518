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

impl Grid {
    /// The eight neighbours of cell `i` away from the map's rim (in a column
    /// [`Grid::inner_columns`] gives for its row): the cells and the order of
    /// [`Topology::neighbors`], found by index offsets alone.
    #[inline(always)]
    pub fn inner_neighbours(&self, i: usize) -> [usize; 8] {
        std::array::from_fn(|k| towards(i, self.width, k))
    }

    /// The columns `first..last` of `row` that lie away from the rim, where
    /// [`Grid::inner_neighbours`] holds (empty on the first and last rows).
    #[inline(always)]
    pub fn inner_columns(&self, row: usize) -> (usize, usize) {
        if row > 0 && row + 1 < self.height && self.width > 2 {
            (1, self.width - 1)
        } else {
            (self.width, self.width)
        }
    }
}

/// The neighbours of one cell, in ascending index order: up-left, up, up-right, left,
/// right, down-left, down, down-right, those that stay on the grid.
enum Neighbours {
    /// A cell away from the rim: all eight, by index offsets.
    Inner(std::array::IntoIter<usize, 8>),
    /// A cell on the rim: bit `k` of `present` set for each direction `k` that stays on the
    /// grid.
    Rim { cell: usize, width: usize, present: u8 },
}

impl Iterator for Neighbours {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        match self {
            Neighbours::Inner(around) => around.next(),
            Neighbours::Rim { cell, width, present } => {
                if *present == 0 {
                    return None;
                }
                let k = present.trailing_zeros() as usize;
                *present &= *present - 1;
                Some(towards(*cell, *width, k))
            }
        }
    }
}

/// Rows and columns of the eight directions, in the order of [`Neighbours`].
const ROW_STEP: [isize; 8] = [-1, -1, -1, 0, 0, 1, 1, 1];
const COLUMN_STEP: [isize; 8] = [-1, 0, 1, -1, 1, -1, 0, 1];

/// The neighbour of cell `i` (`width` cells to a row) in direction `k`, in the order of
/// [`Neighbours`]; the caller knows it is on the grid. Read from tables rather than matched,
/// so a walk over the neighbours takes no jump that depends on the direction.
#[inline(always)]
fn towards(i: usize, width: usize, k: usize) -> usize {
    let k = k & 7;
    i.wrapping_add_signed(ROW_STEP[k] * width as isize + COLUMN_STEP[k])
}

impl Topology for Grid {
    fn len(&self) -> usize {
        self.width * self.height
    }

    #[inline]
    fn neighbors(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let (w, h) = (self.width, self.height);
        let (row, col) = (i / w, i % w);
        if row > 0 && row + 1 < h && col > 0 && col + 1 < w {
            return Neighbours::Inner(self.inner_neighbours(i).into_iter());
        }
        let mut present = u8::MAX;
        if row == 0 {
            present &= !0b0000_0111;
        }
        if row + 1 == h {
            present &= !0b1110_0000;
        }
        if col == 0 {
            present &= !0b0010_1001;
        }
        if col + 1 == w {
            present &= !0b1001_0100;
        }
        Neighbours::Rim { cell: i, width: w, present }
    }

    #[inline]
    fn area_m2(&self, _i: usize) -> f64 {
        self.cell_m * self.cell_m
    }

    #[inline]
    fn distance_m(&self, a: usize, b: usize) -> f64 {
        // Past two columns the index steps of the three kinds of neighbour differ: 1 along a
        // row, `width` along a column, `width ± 1` diagonally.
        let diagonal = if self.width > 2 {
            let step = a.abs_diff(b);
            step != 1 && step != self.width
        } else {
            a / self.width != b / self.width && a % self.width != b % self.width
        };
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

    fn grid(&self) -> Option<&Grid> {
        Some(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Neighbour offsets (row, column) in ascending index order.
    const D8: [(isize, isize); 8] = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)];

    /// Neighbours and their distances agree with the row/column definition on every cell of
    /// small grids, the narrow ones included.
    #[test]
    fn neighbours_and_distances_follow_rows_and_columns() {
        for (width, height) in [(1, 1), (1, 4), (2, 3), (3, 2), (3, 3), (4, 5), (7, 1)] {
            let grid = Grid { width, height, cell_m: 2.0 };
            for i in 0..grid.len() {
                let (row, col) = ((i / width) as isize, (i % width) as isize);
                let expected: Vec<usize> = D8
                    .iter()
                    .map(|(dr, dc)| (row + dr, col + dc))
                    .filter(|&(r, c)| r >= 0 && r < height as isize && c >= 0 && c < width as isize)
                    .map(|(r, c)| r as usize * width + c as usize)
                    .collect();
                assert_eq!(grid.neighbors(i).collect::<Vec<_>>(), expected, "{width}x{height} cell {i}");
                let (first, last) = grid.inner_columns(i / width);
                if (first..last).contains(&(i % width)) {
                    assert_eq!(grid.inner_neighbours(i).to_vec(), expected, "{width}x{height} inner {i}");
                } else {
                    assert!(grid.on_edge(i), "{width}x{height} cell {i} left out of the inner columns");
                }
                for j in expected {
                    let diagonal = j / width != i / width && j % width != i % width;
                    let want = if diagonal { 2.0 * std::f64::consts::SQRT_2 } else { 2.0 };
                    assert_eq!(grid.distance_m(i, j), want, "{width}x{height} {i}->{j}");
                }
            }
        }
    }
}
