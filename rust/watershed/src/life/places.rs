//! Named places on a solved world, around the village the siting pass chose so they show
//! one country: what a game teleports a player to and where it sets down a mill, a boat and
//! a crate (the demo's place picker and the editor's preview both read this list).

use crate::carve::ReachEnd;
use crate::drainage::NodeKind;
use crate::life::biome::Biome;
use crate::life::Life;
use crate::math::sphere;
use crate::water::levels::Body;
use crate::water::world::World;
use glam::DVec3;

/// How far down the river from the mill a swimmer watches it turn, metres: far enough to
/// see the wheel with its mill house (about 6 m across) in one view.
pub const DOWNSTREAM_M: f64 = 25.0;
/// How far down the largest river the boat is launched, metres (further up, as far again at
/// most, where the river below has less than [`BOAT_RUN_M`] of river water).
pub const BOAT_LAUNCH_M: f64 = 40.0;
/// River water the boat keeps below its launch, metres.
pub const BOAT_RUN_M: f64 = 20.0;
/// How far up the river a launch moves at a time to keep [`BOAT_RUN_M`] below it, metres.
const BOAT_STEP_M: f64 = 4.0;
/// How far down the largest river the "boat" place is, metres: a little above the launch,
/// so the boat drifts away from a swimmer there.
pub const BOAT_PLACE_M: f64 = 32.0;
/// The open-sea place is sea at least this deep under the sea level, metres.
pub const OPEN_SEA_DEPTH_M: f64 = 30.0;
/// The steepest ground a walker is put on at a biome's place, degrees.
pub const BIOME_SLOPE_DEG: f64 = 25.0;
/// The biomes with a place of their own, found nearest the village.
pub const BIOME_PLACES: [Biome; 2] = [Biome::Forest, Biome::Snow];

/// The named places of one world, each a unit direction from the planet's centre.
#[derive(Debug, Clone, PartialEq)]
pub struct Places {
    /// `(name, direction)` in a fixed order: `spawn` always, then `village`, `mill`,
    /// `downstream`, `boat`, `sea`, `lake`, `mouth`, `forest`, `snow` where the world has them.
    pub named: Vec<(&'static str, DVec3)>,
    /// Where a boat is let go on the largest river, `BOAT_LAUNCH_M` below its mill site
    /// ([`Mills::site`](crate::Mills::site)), or further up where less than `BOAT_RUN_M`
    /// of river water lies below that; `None` without a river to launch on.
    pub boat_launch: Option<DVec3>,
    /// What a walker at the `mouth` place looks towards: out to sea along its river's last
    /// reach, one reach beyond the mouth; `None` without a mouth.
    pub mouth_out: Option<DVec3>,
}

impl Places {
    /// The places of `world` and its `life`: the spawn (north where there is none), the
    /// village, its mill (on the largest river when none beside the village turns a wheel)
    /// and the river `DOWNSTREAM_M` below it, the boat's place `BOAT_PLACE_M` down the
    /// largest river (`BOAT_LAUNCH_M − BOAT_PLACE_M` above its launch, or halfway from the
    /// mill to a launch nearer than that), the nearest open sea (`OPEN_SEA_DEPTH_M` deep), lake node and river mouth (where a river's
    /// last reach meets the sea, nearest by the reach's start), and the
    /// nearest walkable node of each of `BIOME_PLACES`, "nearest" meaning to the village
    /// (to the spawn without one; ties go to the lower index).
    pub fn of(world: &World, life: &Life) -> Self {
        let sites = &life.sites;
        let spawn = sites.spawn.map_or(DVec3::Y, |s| s.dir);
        let mut named = vec![("spawn", spawn)];
        let centre = sites.village.map_or(spawn, |v| v.dir);
        if let Some(village) = sites.village {
            named.push(("village", village.dir));
        }
        let largest = world.mills().reach().map(|r| r.0 as usize);
        let mill = sites.mill.or_else(|| Some((world.mills().site()?, largest?)));
        if let Some((dir, reach)) = mill {
            named.push(("mill", dir));
            named.push(("downstream", down_the_river(world, reach, DOWNSTREAM_M)));
        }
        // The boat keeps river water with a current below its launch: where the largest
        // river meets a lake or the sea (or the sea covers its last reaches) within
        // BOAT_RUN_M of the launch, it is launched further up, in steps of BOAT_STEP_M.
        let river_at = |reach: usize, along_m: f64| {
            let at = along_the_river(world, reach, along_m);
            world.water().at(at).is_some_and(|w| w.body == Body::River)
        };
        let launch_m = |reach: usize| {
            // Never at the mill itself: not on its wheel.
            let mut tries = (0..)
                .map(|k| BOAT_LAUNCH_M - BOAT_STEP_M * f64::from(k))
                .take_while(|&s| s >= -BOAT_LAUNCH_M)
                .filter(|&s| s != 0.0);
            tries.find(|&s| river_at(reach, s + BOAT_RUN_M)).unwrap_or(-BOAT_LAUNCH_M)
        };
        let launch = largest.map(|reach| (reach, launch_m(reach)));
        let boat_launch = launch.map(|(reach, at_m)| along_the_river(world, reach, at_m));
        // Above the launch, but below the mill where the launch is: not on its wheel.
        let boat_m = |at_m: f64| {
            let above = at_m - (BOAT_LAUNCH_M - BOAT_PLACE_M);
            if at_m > 0.0 {
                above.max(0.5 * at_m)
            } else {
                above
            }
        };
        named.extend(launch.map(|(reach, at_m)| ("boat", along_the_river(world, reach, boat_m(at_m)))));
        let open_sea = world.terrain.settings.sea_level_m - OPEN_SEA_DEPTH_M;
        let kind = &world.terrain.drainage.kind;
        let sea = nearest(world, centre, |i| kind[i] == NodeKind::Sea && world.terrain.heights[i] < open_sea);
        named.extend(sea.map(|dir| ("sea", dir)));
        named.extend(nearest(world, centre, |i| kind[i] == NodeKind::Lake).map(|dir| ("lake", dir)));
        let mouths = world.terrain.carve.reaches.iter().filter(|r| r.ends_in == ReachEnd::Sea);
        // A mouth stands where its river's last reach meets the sea and looks on along it,
        // one reach further out.
        let mouth = mouths.map(|r| (sphere::unit(r.end), sphere::unit(r.end * 2.0 - r.start))).fold(
            None,
            |best: Option<(DVec3, DVec3)>, m| match best {
                Some(b) if b.0.dot(centre) >= m.0.dot(centre) => Some(b),
                _ => Some(m),
            },
        );
        named.extend(mouth.map(|(dir, _)| ("mouth", dir)));
        for biome in BIOME_PLACES {
            let found = life.biomes.nearest(world, &life.climate, biome, centre, BIOME_SLOPE_DEG);
            named.extend(found.map(|i| (biome.name(), world.terrain.lattice.positions()[i])));
        }
        Places { named, boat_launch, mouth_out: mouth.map(|(_, out)| out) }
    }

    /// The direction of the place called `name`, if the world has it.
    pub fn get(&self, name: &str) -> Option<DVec3> {
        self.named.iter().find(|(n, _)| *n == name).map(|&(_, dir)| dir)
    }
}

/// The unit direction `distance_m` metres down the river from the middle of reach `reach`
/// (its mill site): along its centre line and on into the reaches below it, stopping where
/// the river ends in a lake or the sea.
pub fn down_the_river(world: &World, reach: usize, distance_m: f64) -> DVec3 {
    let reaches = &world.terrain.carve.reaches;
    let (mut k, mut t, mut left) = (reach, 0.5, distance_m.max(0.0));
    loop {
        let r = &reaches[k];
        let ahead = (1.0 - t) * r.length_m;
        if left <= ahead {
            return r.point_at(t + left / r.length_m.max(f64::MIN_POSITIVE));
        }
        match world.terrain.carve.reach_from(r.to.index()).filter(|_| r.ends_in == ReachEnd::River) {
            Some(next) => (k, t, left) = (next.0 as usize, 0.0, left - ahead),
            None => return sphere::unit(r.end),
        }
    }
}

/// The unit direction `along_m` metres down the river from the middle of reach `reach`
/// ([`down_the_river`]), or up it for a negative `along_m`: up the reaches bringing the most
/// water (ties to the lower id), stopping at the river's source.
fn along_the_river(world: &World, reach: usize, along_m: f64) -> DVec3 {
    if along_m >= 0.0 {
        return down_the_river(world, reach, along_m);
    }
    let carve = &world.terrain.carve;
    let reaches = &carve.reaches;
    let (mut k, mut t, mut left) = (reach, 0.5, -along_m);
    loop {
        let r = &reaches[k];
        let behind = t * r.length_m;
        if left <= behind {
            return r.point_at(t - left / r.length_m.max(f64::MIN_POSITIVE));
        }
        let above = carve.reaches_at(r.from.index()).iter().map(|&j| j as usize);
        let main = above
            .filter(|&j| reaches[j].to == r.from)
            .max_by(|&a, &b| reaches[a].catchment_m2.total_cmp(&reaches[b].catchment_m2).then(b.cmp(&a)));
        match main {
            Some(j) => (k, t, left) = (j, 1.0, left - behind),
            None => return sphere::unit(r.start),
        }
    }
}

/// The lattice node nearest `centre` (largest dot product, ties to the lower index) for which
/// `wanted` holds, as a direction.
fn nearest(world: &World, centre: DVec3, wanted: impl Fn(usize) -> bool) -> Option<DVec3> {
    let positions = world.terrain.lattice.positions();
    let mut best: Option<(f64, usize)> = None;
    for i in (0..positions.len()).filter(|&i| wanted(i)) {
        let closeness = positions[i].dot(centre);
        if best.is_none_or(|(c, _)| closeness > c) {
            best = Some((closeness, i));
        }
    }
    best.map(|(_, i)| positions[i])
}
