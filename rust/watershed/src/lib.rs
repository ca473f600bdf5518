//! Watershed: planets whose water obeys real hydrology — the pure-Rust core.
//!
//! Every point drains to a strictly lower neighbour or is a sink. The stages, in the order
//! data flows through them, one folder each; a stage uses only itself and the stages above
//! it (`tests/stage_order.rs` holds every file to that):
//!
//! 1. **`settings/`** — `worlds.json`, read strictly into [`WorldSettings`]
//!    ([`WorldCatalog`]); every key is one row of the table [`KEYS`], which the loader, the
//!    writer, the validator, the Godot inspector and the README tables all read.
//! 2. **`ground/`** — [`PlanetHeight`]: metres above the datum for any direction; the
//!    points it is sampled at, [`FibonacciLattice`] on the sphere and [`Grid`] for
//!    heightmaps, both a [`Topology`] to the solver.
//! 3. **`drainage/`** — [`solve`]: sea, priority flood (`flood`), receivers (`routing`),
//!    lakes and bays (`lakes`), catchments, rivers, Strahler orders and mouths (`rivers`),
//!    the topological order; [`drain_grid`] for heightmaps.
//! 4. **`erosion/`** — the ground worked by water before the final drainage: stream power
//!    on any topology ([`erode_stream_power`], [`erode_planet`] for a planet's land masses),
//!    droplets and water + sediment on grids, then sediment settling hollows ([`settle`]);
//!    [`WorkedGround`] is a planet's ground after both, folded back into [`PlanetHeight`].
//! 5. **`carve/`** — [`Carve`]: reaches, beds that never rise, settled joins, falls,
//!    collars. [`Terrain`] holds stages 1–5 for one planet; [`Terrain::ground`] is the one
//!    carved height function, [`Terrain::sdf`] and [`Terrain::fill_block`] its voxel form.
//! 6. **`water/`** — [`WaterLevels`]: every river, lake and sea level once, at load, from the
//!    terrain alone; [`SeaState`]: the Gerstner trains, the storm crest and the shader
//!    uniforms. [`World`] is a terrain and its water table; its questions go through small
//!    views: [`World::water`] ([`WorldWater`]: level, depth, flow, submersion, in batches
//!    too) and [`World::mills`] ([`Mills`]). [`HeightmapWorld`] is the same pipeline on a
//!    heightmap, tuned by [`HeightmapParams`] ([`HEIGHTMAP_KEYS`]).
//! 7. **`floating/`** — bodies on the water: [`Hull`] (buoyancy and drag from the live
//!    water) and [`Boat`] (a boat let go on a river, and its drift).
//! 8. **`life/`** — what lives on the solved world, read from it and never written back:
//!    [`Climate`] (temperature from latitude, altitude and the climate bias; moisture from
//!    the water nearby and rain shadows), [`Biome`]s, [`Sites`] (the village, hamlets, the
//!    mill and the spawn), [`Places`] (the named places around them), [`Scatter`] (trees and
//!    rocks per chunk).
//! 9. **`pipeline/`** — [`Pipeline`]: how a world is made, stages 1–6 and 8 in the order the
//!    water flows, in one file, with progress, cancellation and the ground shown as erosion
//!    works it; [`drainage_params`] is the one place the storm crest reaches the drainage;
//!    [`World::build`] is the plain call.
//! 10. **`output/`** — terrain chunks on a cube-sphere ([`select_chunks`],
//!     [`Terrain::chunk_mesh`]), river water surfaces ([`reach_water_mesh`]), voxel blocks
//!     ([`Block`]), colour rules ([`ground_color`]), pictures ([`render_map`] — water from
//!     the water table), lines over the water for an editor ([`Overlay`]), streaming
//!     ([`ReachStreamer`] for reaches, [`ChunkStreamer`] for chunks), `.npy` files
//!     ([`read_array2`], [`write_npy`]).
//! 11. **`checks/`** — invariants and counts ([`water_stats`], [`carve_stats`],
//!     [`teleport_check`], [`world_probes`]), the headline [`Figures`], SHA-256 over raw
//!     IEEE bytes ([`world_digests`], [`Terrain::network_digest`]), and what a solve will
//!     cost before it runs ([`estimate_solve`], [`check_solve_memory`], from the stages'
//!     constants), apart from the stages they measure.
//!
//! Shared by all: `math/` (directions on the sphere, reach geometry and profiles, the seeded
//! generator [`SplitMix64`]), cancellation and the stopwatch that times a build's stages;
//! [`testkit`] builds each shipped world once per test binary.
//!
//! ```
//! use watershed::{testkit, World};
//!
//! // The quick world (2 km radius), solved; then the water over a river's middle.
//! let world = World::build(&testkit::world(testkit::QUICK_WORLD));
//! let reach = &world.terrain.carve.reaches[0];
//! let level = world.water().level_at(reach.start + reach.end);
//! assert!(level.is_some_and(|l| l > world.terrain.ground(reach.start + reach.end)));
//! ```
//!
//! Units are metres, seconds and radians unless a name says otherwise (`lat_deg`).
//! Directions are unit vectors with +Y north (Godot's axes).

#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod cancel;
mod carve;
mod checks;
mod drainage;
mod erosion;
mod floating;
mod ground;
mod life;
mod math;
mod output;
mod pipeline;
mod settings;
mod stopwatch;
pub mod testkit;
mod water;

// 1. settings: worlds.json, strictly
pub use settings::{
    inspector_markdown, keys_markdown, ConfigError, ConfigErrors, KeyGroup, KeyKind, KeySpec, KeyValue,
    LatLon, Look, LookFamily, Rgb, Rule, WorldCatalog, WorldSettings, KEYS,
};

// 2. ground: heights on the sphere and on grids
pub use ground::grid::Grid;
pub use ground::height::PlanetHeight;
pub use ground::lattice::FibonacciLattice;
pub use ground::region::sample_region;
pub use ground::surface::{GridSurface, PlanetSurface, Surface};
pub use ground::topology::{NodeId, Topology};

// 3. drainage: where every point drains
pub use drainage::grid::{drain_grid, drain_grid_handing_over, GridOptions};
pub use drainage::{
    route, solve, solve_cancellable, solve_handing_over, solve_with_surfaces, Drainage, DrainageParams,
    DrainageStats, FloodSurfaces, HandOver, Lake, NodeKind, Outlet, Routing, Settled,
};

// 4. erosion: the ground worked by water
pub use erosion::dials::{dials_markdown, Dial, Dials, Preset};
pub use erosion::droplets::{erode_droplets, Droplets};
pub use erosion::grid_erosion::{turned, GridErosion};
pub use erosion::planet::{erode_planet, PlanetErosion, PEAK_UPLIFT_M_PER_YR, START_RELIEF};
pub use erosion::sediment::{settle, SETTLED_FALL_M};
pub use erosion::stream_power::{erode_stream_power, StreamPower, Tectonics, STEP_YEARS};
pub use erosion::water_sediment::{erode_water_sediment, WaterSediment};
pub use erosion::worked::WorkedGround;
pub use erosion::{ErosionReport, FrameSink};

// 5. carve: channels, and the terrain they make
pub use carve::terrain::Terrain;
pub use carve::{
    Carve, CarveParams, CarveStats, Reach, ReachEnd, ReachId, BANK_REFINE_M, BANK_SPACING_M, BED_STEP_M,
    FALL_DROP_M, MAX_FACE_SLOPE, MIN_BED_PIECES, OVERLAP_M, SETTLE_MARGIN_M, SILL_DEPTH_M, SILL_SLOPE,
};

// 6. water: levels, the world's water, heightmap worlds
pub use water::drawn::{cut_course, drawn_course, Sprung, DRAWN_CUT_M, DRAWN_FALL_M};
pub use water::fit::{fit_to_ground, FitReport, FIT_DRIED_WARNING};
pub use water::heightmap::{
    check_finite, check_heightmap, Cover, HeightmapStats, HeightmapWorld, MIN_HEIGHTMAP_SIDE,
    SHORE_MISMATCH_M, WATER_STEP_M,
};
pub use water::heightmap_params::{
    heightmap_key, HeightmapKey, HeightmapKind, HeightmapParams, HeightmapRange, HeightmapValue,
    HEIGHTMAP_KEYS,
};
pub use water::levels::{
    Body, ReachFlow, Water, WaterLevels, WaterParams, WaterStats, BASE_RUNOFF_M_S, LAKE_BLEND_M,
    SEA_CLEARANCE_M,
};
pub use water::mills::Mills;
pub use water::waves::{SeaState, WaveTrain, GRAVITY_M_S2, STORM_FACTOR};
pub use water::world::{World, WorldWater};

// 7. floating: bodies on the water
pub use floating::boat::{Boat, BoatState, Drift};
pub use floating::hull::{Hull, WATER_DENSITY};

// 8. life: climate, biomes, sites, places, scatter
pub use life::biome::{altitude, biome_at, Biome, Biomes, Conditions, BIOMES};
pub use life::climate::{temperature_c, Climate};
pub use life::places::{Places, BIOME_PLACES, BOAT_LAUNCH_M, BOAT_PLACE_M, BOAT_RUN_M, DOWNSTREAM_M};
pub use life::scatter::{tree_mix, Instance, Scatter, ScatterKind, ScatterRules};
pub use life::sites::{Site, SiteRules, Sites, Spawn};
pub use life::Life;

// 9. pipeline: how a world is made
pub use pipeline::{drainage_params, FrameStage, GroundFrame, GroundSink, Pipeline};

// 10. output: meshes, voxels, pictures, streaming, files
pub use output::chunks::ChunkStreamer;
pub use output::grid_maps::{
    control_word, hterrain_side, GridMaps, Layer, BANK_CUT_M, FLOW_FOAM_FULL_SPEED_M_S, FOAM_FALL,
    FOAM_SPEED_M_S, HTERRAIN_SIDES, ROCK_SLOPE_DEG, SHORE_FOAM,
};
pub use output::grid_mesh::{grid_mesh, ground_mesh, splat_color, water_mesh, LAYER_COLORS, WATER_COLORS};
pub use output::look::{ground_color, to_rgb8, under_sea, Color};
pub use output::mesh::{reach_water_mesh, sea_depth_map, water_chunk_mesh, MeshArrays, MAX_DEPTH_MAP_WIDTH};
pub use output::npy::{
    read_array2, read_array2_from, write as write_npy, write_to as write_npy_to, Array2, NpyElement, NpyError,
};
pub use output::overlay::Overlay;
pub use output::render::{
    accumulation_chart, map_direction, map_fractions, relief_chart, render_accumulation, render_biome_map,
    render_globe, render_ground_map, render_map, render_relief, GlobeView, Image, Progress,
};
pub use output::section::{render_grid_profile, render_section};
pub use output::stream::{reaches_within, ReachStreamer, StreamUpdate};
pub use output::voxel::{
    encode_sdf, fill_natural_block, Block, BlockFill, ReachVolume, SdfDepth, VoxelError, MAX_BLOCK_LOD,
    MAX_BLOCK_SIDE, SDF_16_BIT_SCALE,
};

// 11. checks: invariants, figures, digests, budgets
pub use checks::budget::{
    available_memory_bytes, check_grid_memory, check_solve_memory, check_solve_memory_with, estimate_solve,
    estimated_grid_bytes, estimated_solve_bytes, human_bytes, SolveEstimate, SolveMemoryError,
    GRID_BYTES_PER_CELL, SOLVE_BYTES_PER_BED_PIECE, SOLVE_BYTES_PER_NODE,
};
pub use checks::digest::{
    digest_f64, scatter_digest, scatter_digest_chunks, water_digest, world_digests, WorldDigests,
    DIGEST_SAMPLES,
};
pub use checks::figures::{Figures, LatLonDeg};
pub use checks::probe::{config_probe, world_probes, ProbeLine, Verdict};
pub use checks::stats::{carve_stats, river_sample_points, teleport_check, water_stats};

// Shared: directions on the sphere, chunks, the seeded generator
pub use glam::DVec3;
pub use math::cube::{select_chunks, ChunkKey};
pub use math::rng::SplitMix64;
pub use math::sphere::{
    checked_unit, direction, fibonacci, lat_lon_rad, random_directions, ray_sphere, unit,
};
