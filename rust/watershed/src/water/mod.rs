//! Stage 5, the water: every river, lake and sea level once, at load (`levels`), the sea's
//! waves (`waves`), the world that answers every water question (`world`) and floating
//! bodies (`hull`).

pub mod boat;
pub mod fit;
pub mod heightmap;
pub mod heightmap_params;
pub mod hull;
pub mod levels;
pub mod mills;
pub(crate) mod view;
pub mod waves;
pub mod world;
