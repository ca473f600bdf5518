//! What a drainage solve takes and gives: where water goes (`Outlet`), what each node is
//! (`NodeKind`), the parameters, the lakes, the counts and invariants, and the solved
//! `Drainage` itself.

use crate::ground::topology::NodeId;
use crate::settings::WorldSettings;

/// Where a node's water goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outlet {
    /// The node is sea: its water has arrived.
    Sea,
    /// The node is on the map edge of a grid and water leaves the map there.
    Edge,
    /// The node is a terminal sink (the lowest node of a world without sea or edge).
    Sink,
    /// The node drains to this strictly lower neighbour.
    Flows(NodeId),
}

impl Outlet {
    /// The receiving node, if the water flows on.
    pub fn receiver(self) -> Option<NodeId> {
        match self {
            Outlet::Flows(n) => Some(n),
            _ => None,
        }
    }

    /// The receiving node's index, -1 where the water stops (sea, edge, sink): the form
    /// file formats and engines take.
    pub fn receiver_index(self) -> i64 {
        self.receiver().map_or(-1, |n| i64::from(n.0))
    }
}

/// Where the water of an outlet node stops: the [`Outlet`]s that are not a flow, one byte a
/// node where the flood marks them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Terminal {
    Sea,
    Edge,
    Sink,
}

impl From<Terminal> for Outlet {
    fn from(terminal: Terminal) -> Self {
        match terminal {
            Terminal::Sea => Outlet::Sea,
            Terminal::Edge => Outlet::Edge,
            Terminal::Sink => Outlet::Sink,
        }
    }
}

/// What a node is, as the export's `kind.npy` codes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum NodeKind {
    /// Dry ground that carries no river.
    Land = 0,
    /// Under the sea (or a bay that joined it).
    Sea = 1,
    /// Standing water at a lake's level.
    Lake = 2,
    /// Land whose catchment passes the river threshold.
    River = 3,
}

/// What the solve needs to know about the water, in the heights' units (metres).
#[derive(Debug, Clone, PartialEq)]
pub struct DrainageParams {
    /// Nodes strictly under this level are sea; `None` for a world without a sea.
    pub sea_level_m: Option<f64>,
    /// The highest the sea can stand above its level; lakes under it are bays.
    pub storm_crest_m: f64,
    /// Whether depressions hold lakes.
    pub lakes: bool,
    /// A depression is a lake when it is filled by more than this, metres.
    pub lake_min_depth_m: f64,
    /// Whether rivers form.
    pub rivers: bool,
    /// Catchment from which a land node is river, m².
    pub river_catchment_m2: f64,
    /// Whether edge nodes of a grid are outlets.
    pub edge_outlets: bool,
}

impl DrainageParams {
    /// The parameters a world's settings give (sea, lakes, rivers, thresholds), with the
    /// sea's storm crest in metres above its level from the caller (the sea's waves are a
    /// later stage: `SeaState::storm_crest_m`).
    /// Outlets only, for routing water over a surface (erosion, heightmaps): the sea below
    /// `sea_level_m` (if any) and, with `edge_outlets`, the map edge; every depression counts
    /// as a lake, no rivers are marked.
    pub fn outlets(sea_level_m: Option<f64>, edge_outlets: bool) -> Self {
        DrainageParams {
            sea_level_m,
            storm_crest_m: 0.0,
            lakes: true,
            lake_min_depth_m: 0.0,
            rivers: false,
            river_catchment_m2: f64::INFINITY,
            edge_outlets,
        }
    }

    /// The drainage of a world's lattice under `settings`, with the sea's storm crest.
    pub fn for_world(settings: &WorldSettings, storm_crest_m: f64) -> Self {
        DrainageParams {
            sea_level_m: settings.sea.then_some(settings.sea_level_m),
            storm_crest_m,
            lakes: settings.lakes,
            lake_min_depth_m: settings.lake_min_depth_m,
            rivers: settings.rivers,
            river_catchment_m2: settings.river_catchment_m2,
            edge_outlets: false,
        }
    }
}

/// One lake: a depression deeper than the minimum whose level stands clear of the sea.
#[derive(Debug, Clone, PartialEq)]
pub struct Lake {
    /// Water level (the spill level), metres.
    pub level_m: f64,
    /// Level minus the lowest ground under the lake, metres.
    pub depth_m: f64,
    /// The node outside the lake its water spills to.
    pub outlet: Outlet,
    /// Number of nodes under the lake.
    pub nodes: usize,
    /// Surface area, m².
    pub area_m2: f64,
}

/// Counts for reports and the invariant tests. Its serde form is the one schema of these
/// names: `DrainageSolver.stats()`'s keys, `report.json`'s `drainage` and the probes' reads.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct DrainageStats {
    /// Nodes in the solve.
    pub nodes: usize,
    /// Sea nodes (bays included).
    pub sea: usize,
    /// Dry land nodes that are not river.
    pub land: usize,
    /// Lake nodes.
    pub lake: usize,
    /// River nodes.
    pub river: usize,
    /// Lakes.
    pub lakes: usize,
    /// Depressions that would be lakes but sit under the storm crest, joined to the sea.
    pub bays: usize,
    /// River nodes that drain into the sea.
    pub mouths: usize,
    /// Highest Strahler order of any river node.
    pub max_strahler: u8,
    /// Largest catchment that reaches an outlet, m² (and in nodes' worth of area).
    pub largest_catchment_m2: f64,
    /// Nodes whose area makes up the largest catchment.
    pub largest_catchment_nodes: usize,
    /// Invariant (0): land nodes whose receiver is not strictly lower on the routing surface.
    pub uphill: usize,
    /// Invariant (0): land nodes from which no path of receivers reaches an outlet.
    pub no_path: usize,
    /// Invariant (0): river nodes under the sea surface.
    pub underwater_rivers: usize,
    /// Dry nodes (land and river) whose receiver stands at or above them on the ground
    /// itself, not only on the routing surface: hollows and flats nothing filled (0 on a
    /// settled world with lakes).
    pub ground_uphill: usize,
}

/// The solved drainage of one surface.
#[derive(Debug, Clone)]
pub struct Drainage {
    /// Where each node drains.
    pub receivers: Vec<Outlet>,
    /// Catchment area draining through each node, itself included, m².
    pub catchment_m2: Vec<f64>,
    /// What each node is.
    pub kind: Vec<NodeKind>,
    /// The sea level the solve drained to, metres (`None`: no sea).
    pub sea_level_m: Option<f64>,
    /// 0 outside lakes, otherwise 1 + the index into `lakes`.
    pub lake_id: Vec<u32>,
    /// The lakes, ordered by their lowest node index.
    pub lakes: Vec<Lake>,
    /// Every node ordered after all the nodes that drain into it (sources first, outlets
    /// last); a node on a receiver cycle would be left out (`stats.no_path` counts them).
    pub order: Vec<u32>,
    /// Strahler order of river nodes (0 elsewhere).
    pub strahler: Vec<u8>,
    /// River nodes that drain into the sea, ascending.
    pub mouths: Vec<NodeId>,
    /// Counts and invariants.
    pub stats: DrainageStats,
    /// Wall-clock milliseconds per stage of the solve, in order (not part of any digest).
    pub timings_ms: Vec<(&'static str, f64)>,
}

impl Drainage {
    /// Standing water level at `node`, metres: the sea level on sea nodes, the lake's level
    /// on lake nodes, NaN elsewhere (rivers get their levels from the water table).
    pub fn water_level_m(&self, node: usize) -> f64 {
        match self.kind[node] {
            NodeKind::Sea => self.sea_level_m.unwrap_or(f64::NAN),
            NodeKind::Lake => {
                let lake = (self.lake_id[node] as usize).checked_sub(1).and_then(|k| self.lakes.get(k));
                lake.map_or(f64::NAN, |lake| lake.level_m)
            }
            NodeKind::Land | NodeKind::River => f64::NAN,
        }
    }

    /// [`Drainage::water_level_m`] of every node in index order, metres.
    pub fn water_levels_m(&self) -> impl ExactSizeIterator<Item = f64> + '_ {
        (0..self.kind.len()).map(|i| self.water_level_m(i))
    }

    /// Every node's receiver as a flat index, -1 where the water stops (sea, edge, sink):
    /// the form file formats and engines take.
    pub fn receiver_indices(&self) -> Vec<i64> {
        self.receiver_indices_iter().collect()
    }

    /// [`Drainage::receiver_indices`] one at a time, for writers that stream them.
    pub fn receiver_indices_iter(&self) -> impl ExactSizeIterator<Item = i64> + '_ {
        self.receivers.iter().map(|r| r.receiver_index())
    }
}
