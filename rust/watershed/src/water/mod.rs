//! Stage 6, the water: every river, lake and sea level once, at load (`levels`), the sea's
//! waves (`waves`), the world that answers every water question (`world`, `mills`), the
//! same pipeline on a heightmap (`heightmap`, its knobs `heightmap_params`, the rivers a
//! designer draws on it `drawn`) and the water fitted to its ground (`fit`).

pub mod drawn;
pub mod fit;
pub mod heightmap;
pub mod heightmap_params;
pub mod levels;
pub mod mills;
pub(crate) mod view;
pub mod waves;
pub mod world;
