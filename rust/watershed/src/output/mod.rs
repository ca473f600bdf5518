//! Stage 10, output: what the world is turned into for eyes and engines — colour rules
//! (`look`), terrain and water meshes (`mesh`), voxel blocks (`voxel`), pictures (`render`,
//! `section`; framed with axes and a legend by `chart`), lines over the rivers and lakes
//! for an editor (`overlay`), reach and chunk streaming (`stream`, `chunks`) and `.npy`
//! files (`npy`).

pub mod chart;
pub mod chunks;
pub mod grid_maps;
pub mod grid_mesh;
pub mod look;
pub mod mesh;
pub mod npy;
pub mod overlay;
pub mod render;
pub mod section;
pub mod stream;
pub mod voxel;
