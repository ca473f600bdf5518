//! What the river pipeline on a heightmap is tuned by: [`HeightmapParams`] and the table
//! [`HEIGHTMAP_KEYS`] it is written from, one row a knob. The CLI's flags and
//! `HeightmapWatershed`'s inspector properties are both read from the table, so a knob's
//! name, range, unit, default and meaning are spelled once.

use crate::ground::grid::Grid;
use crate::water::levels::BASE_RUNOFF_M_S;

/// The reference game map's river threshold in cells (27,500 m² at one-metre cells): the
/// most cells an automatic threshold asks for.
pub const AUTO_RIVER_CELLS_MAX: f64 = 27_500.0;
/// The share of a map's cells an automatic river threshold asks for, when that is fewer
/// than `AUTO_RIVER_CELLS_MAX`: 1/160, so the reference map (2113 × 2113 cells, whose
/// share is 27,905 cells) keeps its 27,500.
pub const AUTO_RIVER_SHARE: f64 = 1.0 / 160.0;
/// The fewest cells an automatic river threshold asks for: on a tiny map a river still
/// drains a few cells' worth of ground, not one.
pub const AUTO_RIVER_CELLS_MIN: f64 = 16.0;
/// The reference game map's channel half width, metres: what an automatic half width is
/// on cells up to two metres.
pub const AUTO_HALF_WIDTH_M: f64 = 3.0;
/// An automatic half width in cells on coarser maps: the centre cell and half a cell of
/// bank on either side, so a channel is drawn on a 30 or 90 m DEM instead of falling
/// between cells.
pub const AUTO_HALF_WIDTH_CELLS: f64 = 1.5;

/// What one heightmap knob holds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum HeightmapValue {
    /// A number, in the unit of the knob's range.
    Number(f64),
    /// On or off.
    Switch(bool),
    /// A number, or none.
    Optional(Option<f64>),
}

/// The numbers a knob accepts, and how an inspector slides over them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HeightmapRange {
    /// Smallest accepted value.
    pub min: f64,
    /// Largest accepted value.
    pub max: f64,
    /// The inspector's step.
    pub step: f64,
    /// Unit shown after the value (`"m"`), empty for a fraction.
    pub unit: &'static str,
    /// Whether the inspector's slider is logarithmic (the range spans decades).
    pub log: bool,
}

/// What kind of knob a row is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum HeightmapKind {
    /// A number within the range.
    Number(HeightmapRange),
    /// On or off.
    Switch,
    /// A number within the range, or none; in Godot a switch property named `switch` says
    /// which.
    Optional {
        /// The numbers accepted when there is one.
        range: HeightmapRange,
        /// The Godot switch property that turns the number on (`has_sea`).
        switch: &'static str,
        /// The number the inspector holds while the switch is off, the first a designer who
        /// turns it on starts from (the sea at 0 m; the reference map's 27,500 m² and 3 m).
        unset: f64,
    },
}

/// One knob of [`HeightmapParams`]: a row of [`HEIGHTMAP_KEYS`].
#[derive(Debug, Clone, Copy)]
pub struct HeightmapKey {
    /// The field's name, also the Godot property's (`cell_m`).
    pub name: &'static str,
    /// The CLI flag, without its dashes (`cell-m`).
    pub flag: &'static str,
    /// What the knob means, one sentence.
    pub doc: &'static str,
    /// What values it takes.
    pub kind: HeightmapKind,
    get: fn(&HeightmapParams) -> HeightmapValue,
    set: fn(&mut HeightmapParams, HeightmapValue) -> bool,
}

impl HeightmapKey {
    /// This knob's value in `params`.
    pub fn value(&self, params: &HeightmapParams) -> HeightmapValue {
        (self.get)(params)
    }

    /// This knob's value in [`HeightmapParams::default`].
    pub fn default_value(&self) -> HeightmapValue {
        self.value(&HeightmapParams::default())
    }

    /// Sets this knob in `params` to `value`, checked against the range; the message for a
    /// value of another kind or out of range.
    pub fn set(&self, params: &mut HeightmapParams, value: HeightmapValue) -> Result<(), String> {
        let number = match value {
            HeightmapValue::Number(x) | HeightmapValue::Optional(Some(x)) => Some(x),
            HeightmapValue::Switch(_) | HeightmapValue::Optional(None) => None,
        };
        if let (Some(x), Some(range)) = (number, self.range()) {
            range.check(x, &x.to_string()).map_err(|e| format!("{}: {e}", self.name))?;
        }
        if (self.set)(params, value) {
            Ok(())
        } else {
            Err(format!("{}: {value:?} is not a value of this knob", self.name))
        }
    }

    /// The accepted numbers; `None` for a switch.
    pub fn range(&self) -> Option<HeightmapRange> {
        match self.kind {
            HeightmapKind::Number(range) | HeightmapKind::Optional { range, .. } => Some(range),
            HeightmapKind::Switch => None,
        }
    }

    /// The accepted values as text: `0.001..=100000 metres`, `true or false`.
    pub fn range_text(&self) -> String {
        self.range().map_or_else(|| "true or false".to_owned(), |r| r.text())
    }

    /// The value `text` gives this knob, as a CLI flag reads it: a number within the range,
    /// or `true`/`false` for a switch; the message (naming the range and the value) for
    /// anything else.
    pub fn parse(&self, text: &str) -> Result<HeightmapValue, String> {
        match self.kind {
            HeightmapKind::Switch => match text.trim() {
                "true" => Ok(HeightmapValue::Switch(true)),
                "false" => Ok(HeightmapValue::Switch(false)),
                _ => Err(format!("expected true or false, got '{text}'")),
            },
            HeightmapKind::Number(range) => Ok(HeightmapValue::Number(range.parse(text)?)),
            HeightmapKind::Optional { range, .. } => Ok(HeightmapValue::Optional(Some(range.parse(text)?))),
        }
    }
}

impl HeightmapRange {
    /// The unit as a message says it: `metres` for `m`.
    fn unit_words(&self) -> &'static str {
        match self.unit {
            "m" => "metres",
            unit => unit,
        }
    }

    /// The range as text: `0.001..=100000 metres`, `0..=1`.
    pub fn text(&self) -> String {
        match self.unit_words() {
            "" => format!("{}..={}", self.min, self.max),
            unit => format!("{}..={} {unit}", self.min, self.max),
        }
    }

    /// The number `text` holds, within the range; the message naming the range and `text`
    /// otherwise.
    pub fn parse(&self, text: &str) -> Result<f64, String> {
        let of = match self.unit_words() {
            "" => String::new(),
            unit => format!(" of {unit}"),
        };
        let x: f64 = text.trim().parse().map_err(|_| format!("expected a number{of}, got '{text}'"))?;
        self.check(x, text.trim())
    }

    /// `x` when it is finite and within the range; the message naming the range and `shown`
    /// (how the value was written) otherwise.
    fn check(&self, x: f64, shown: &str) -> Result<f64, String> {
        if x.is_finite() && (self.min..=self.max).contains(&x) {
            Ok(x)
        } else {
            Err(format!("must be within {}, got {shown}", self.text()))
        }
    }
}

/// A range as rows write it.
const fn range(min: f64, max: f64, step: f64, unit: &'static str, log: bool) -> HeightmapRange {
    HeightmapRange { min, max, step, unit, log }
}

macro_rules! heightmap_keys {
    ($($field:ident: $ty:ty = $default:expr, $value:ident($kind:expr), $flag:literal, $doc:literal;)*) => {
        /// How a heightmap world is built. [`HeightmapParams::default`] is the reference game
        /// map's pipeline, made to follow a map's size: one-metre cells, rivers from 1/160 of
        /// the map's cells (27,500 m² on the reference map's 2113 × 2113), channels 6 m wide
        /// (three cells wide on coarser cells) and up to 12 m deep, water at 0.6 of the carve
        /// depth, the map edge an outlet. [`HeightmapParams::on`] gives the values on a map.
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub struct HeightmapParams {
            $(#[doc = $doc] pub $field: $ty,)*
        }

        impl Default for HeightmapParams {
            fn default() -> Self {
                HeightmapParams { $($field: $default,)* }
            }
        }

        /// Every knob of [`HeightmapParams`], in the order the inspector shows them.
        pub const HEIGHTMAP_KEYS: &[HeightmapKey] = &[$(HeightmapKey {
            name: stringify!($field),
            flag: $flag,
            doc: $doc,
            kind: $kind,
            get: |p| HeightmapValue::$value(p.$field),
            set: |p, v| match v {
                HeightmapValue::$value(x) => {
                    p.$field = x;
                    true
                }
                _ => false,
            },
        },)*];
    };
}

heightmap_keys! {
    cell_m: f64 = 1.0, Number(HeightmapKind::Number(range(0.001, 100000.0, 0.001, "m", true))),
        "cell-m", "Edge length of a cell, metres.";
    sea_level_m: Option<f64> = None,
        Optional(HeightmapKind::Optional {
            range: range(-10_000_000.0, 10_000_000.0, 0.01, "m", false),
            switch: "has_sea",
            unset: 0.0,
        }),
        "sea-level", "Cells strictly under this height are sea, metres; none for no sea.";
    edge_outlets: bool = true, Switch(HeightmapKind::Switch),
        "edge-outlets", "Whether the map edge is an outlet (water leaves the map there).";
    lake_min_depth_m: f64 = 0.5, Number(HeightmapKind::Number(range(0.0, 10_000.0, 0.01, "m", false))),
        "lake-min-depth",
        "A hollow filled deeper than this and fed by the river threshold's catchment is a lake; other hollows fill with sediment, metres.";
    river_catchment_m2: Option<f64> = None,
        Optional(HeightmapKind::Optional {
            range: range(1.0, 1.0e12, 1.0, "m²", true),
            switch: "custom_river_catchment",
            unset: AUTO_RIVER_CELLS_MAX,
        }),
        "river-catchment",
        "Catchment from which a cell carries a river, m²; none: 1/160 of the map's cells, 16 to 27,500 cells.";
    channel_depth_m: f64 = 12.0, Number(HeightmapKind::Number(range(0.0, 200.0, 0.1, "m", false))),
        "channel-depth", "Depth of the largest river's channel, metres.";
    channel_half_width_m: Option<f64> = None,
        Optional(HeightmapKind::Optional {
            range: range(0.5, 500.0, 0.1, "m", false),
            switch: "custom_channel_half_width",
            unset: AUTO_HALF_WIDTH_M,
        }),
        "channel-half-width",
        "Half a channel's width, centre line to bank, metres; none: 3 m, or 1.5 cells on cells over 2 m.";
    river_fill: f64 = 0.6, Number(HeightmapKind::Number(range(0.0, 1.0, 0.01, "", false))),
        "river-fill", "A river's surface stands this fraction of its carve depth above its bed.";
    runoff_m_s: f64 = BASE_RUNOFF_M_S,
        Number(HeightmapKind::Number(range(0.0, 0.001, 1.0e-7, "m/s", false))),
        "runoff", "Runoff over every catchment, metres per second.";
}

impl HeightmapParams {
    /// The catchment from which a cell of `grid` carries a river, m²: the knob, or where it
    /// is none 1/160 of the map's cells, within 16..=27,500 cells (`AUTO_RIVER_SHARE`).
    pub fn river_catchment_on(&self, grid: &Grid) -> f64 {
        self.river_catchment_m2.unwrap_or_else(|| {
            let cells = ((grid.width * grid.height) as f64 * AUTO_RIVER_SHARE)
                .clamp(AUTO_RIVER_CELLS_MIN, AUTO_RIVER_CELLS_MAX);
            cells * grid.cell_m * grid.cell_m
        })
    }

    /// The least catchment that keeps a hollow's lake on `grid`, m²: the river threshold
    /// ([`HeightmapParams::river_catchment_on`]).
    pub fn lake_min_catchment_on(&self, grid: &Grid) -> f64 {
        self.river_catchment_on(grid)
    }

    /// Half a channel's width on `grid`, metres: the knob, or where it is none
    /// `AUTO_HALF_WIDTH_M` or `AUTO_HALF_WIDTH_CELLS` cells, whichever is wider.
    pub fn channel_half_width_on(&self, grid: &Grid) -> f64 {
        self.channel_half_width_m
            .unwrap_or_else(|| AUTO_HALF_WIDTH_M.max(AUTO_HALF_WIDTH_CELLS * grid.cell_m))
    }

    /// These knobs on `grid`, every one that follows the map (none) given its value there.
    pub fn on(&self, grid: &Grid) -> HeightmapParams {
        HeightmapParams {
            river_catchment_m2: Some(self.river_catchment_on(grid)),
            channel_half_width_m: Some(self.channel_half_width_on(grid)),
            ..*self
        }
    }
}

/// The row of [`HEIGHTMAP_KEYS`] named `name` (`cell_m`).
pub fn heightmap_key(name: &str) -> Option<&'static HeightmapKey> {
    HEIGHTMAP_KEYS.iter().find(|k| k.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_is_within_its_range_and_reads_back() {
        for key in HEIGHTMAP_KEYS {
            let mut params = HeightmapParams::default();
            assert_eq!(key.set(&mut params, key.default_value()), Ok(()), "{}", key.name);
            assert_eq!(params, HeightmapParams::default(), "{}", key.name);
            if let HeightmapKind::Optional { range, unset, .. } = key.kind {
                assert!((range.min..=range.max).contains(&unset), "{}: unset {unset}", key.name);
            }
        }
    }

    #[test]
    fn a_knob_set_through_the_table_changes_only_its_field() {
        for key in HEIGHTMAP_KEYS {
            let mut params = HeightmapParams::default();
            let changed = match key.range() {
                None => "false".to_owned(),
                Some(r) => ((r.min + r.max) / 2.0).to_string(),
            };
            let value = key.parse(&changed).unwrap_or_else(|e| panic!("{e}"));
            assert_ne!(value, key.default_value(), "{}", key.name);
            key.set(&mut params, value).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(key.value(&params), value, "{}", key.name);
            for other in HEIGHTMAP_KEYS.iter().filter(|o| o.name != key.name) {
                assert_eq!(other.value(&params), other.default_value(), "{} moved {}", key.name, other.name);
            }
        }
    }

    #[test]
    fn automatic_rivers_and_channels_follow_the_map() {
        let auto = HeightmapParams::default();
        let map = |width, height, cell_m| Grid { width, height, cell_m };
        // The reference game map keeps its figures.
        let reference = map(2113, 2113, 1.0);
        assert_eq!(auto.river_catchment_on(&reference), 27_500.0);
        assert_eq!(auto.channel_half_width_on(&reference), 3.0);
        // A 90 m survey DEM: 1/160 of its million cells, not three cells; channels 1.5 cells.
        let dem = map(1000, 1000, 90.0);
        assert_eq!(auto.river_catchment_on(&dem), 6_250.0 * 8_100.0);
        assert_eq!(auto.channel_half_width_on(&dem), 135.0);
        // A tiny map still asks 16 cells of a river.
        assert_eq!(auto.river_catchment_on(&map(10, 10, 2.0)), 64.0);
        // A knob given is used as given.
        let given =
            HeightmapParams { river_catchment_m2: Some(500.0), channel_half_width_m: Some(2.0), ..auto };
        assert_eq!((given.river_catchment_on(&dem), given.channel_half_width_on(&dem)), (500.0, 2.0));
        assert_eq!(auto.on(&dem).river_catchment_m2, Some(auto.river_catchment_on(&dem)));
    }

    #[test]
    fn the_automatic_threshold_in_cells_does_not_depend_on_the_cell_size() {
        let auto = HeightmapParams::default();
        for (width, height) in [(7, 300), (257, 257), (1000, 640), (4097, 4097)] {
            let cells =
                |cell_m: f64| auto.river_catchment_on(&Grid { width, height, cell_m }) / (cell_m * cell_m);
            for cell_m in [0.25, 1.0, 30.0, 90.0] {
                assert!((cells(cell_m) / cells(1.0) - 1.0).abs() < 1e-12, "{width}x{height} at {cell_m} m");
            }
            let share = cells(1.0) / (width * height) as f64;
            assert!(share <= AUTO_RIVER_SHARE.max(AUTO_RIVER_CELLS_MIN / (width * height) as f64) + 1e-12);
        }
    }

    #[test]
    fn bad_values_are_refused_with_the_range() {
        let cell = heightmap_key("cell_m").expect("cell_m is a knob");
        assert_eq!(cell.parse("0"), Err("must be within 0.001..=100000 metres, got 0".to_owned()));
        assert_eq!(cell.parse("wide"), Err("expected a number of metres, got 'wide'".to_owned()));
        let mut params = HeightmapParams::default();
        assert_eq!(
            cell.set(&mut params, HeightmapValue::Number(f64::NAN)),
            Err("cell_m: must be within 0.001..=100000 metres, got NaN".to_owned())
        );
        assert!(cell.set(&mut params, HeightmapValue::Switch(true)).is_err());
        let edge = heightmap_key("edge_outlets").expect("edge_outlets is a knob");
        assert_eq!(edge.parse("yes"), Err("expected true or false, got 'yes'".to_owned()));
        assert_eq!(params, HeightmapParams::default());
    }
}
