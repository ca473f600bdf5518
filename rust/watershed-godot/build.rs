//! Build steps for the extension library.
//!
//! 1. Link settings. rayon's worker threads live as long as the process and run code from
//!    this library. When Godot unloads extensions at exit (`dlclose`), a worker that wakes
//!    afterwards jumps into unmapped code and the engine dies with SIGSEGV (seen in the
//!    headless engine, about one exit in five after parallel queries). `-z nodelete` keeps
//!    the library mapped until the process ends; the `.gdextension` is not hot-reloadable
//!    for the same reason.
//! 2. `WorldSettings`' properties, written from the core's key table (`watershed::KEYS`):
//!    one exported field per key (a place is three), with the key's group, inspector range,
//!    unit, starting value and doc, and the conversions to and from the core settings. A
//!    new `worlds.json` key becomes an inspector property without touching this crate.
//! 3. `HeightmapWatershed`'s knobs, written from the core's heightmap table
//!    (`watershed::HEIGHTMAP_KEYS`): one exported field per knob (an optional number is a
//!    switch and a number), with its range, unit, default and doc, and `knobs()`, the core
//!    parameters they describe; and its erosion, from the core's dial tables
//!    (`watershed::Dials`): the model, a preset that sets the dials, and one exported field
//!    per dial of each grid model, with `erosion()`, the core choice they describe.

use std::fmt::Write as _;
use watershed::{Dials, Droplets, WaterSediment};
use watershed::{HeightmapKind, HeightmapRange, HeightmapValue, KeyKind, KeySpec, KeyValue, LookFamily};
use watershed::{HEIGHTMAP_KEYS, KEYS};

fn main() {
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-z,nodelete");
    }
    let Some(out_dir) = std::env::var_os("OUT_DIR") else {
        panic!("cargo sets OUT_DIR for build scripts");
    };
    for (file, text) in
        [("world_settings_properties.rs", properties()), ("heightmap_properties.rs", heightmap_properties())]
    {
        let path = std::path::Path::new(&out_dir).join(file);
        if let Err(e) = std::fs::write(&path, text) {
            panic!("cannot write {}: {e}", path.display());
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}

/// A float as Rust source that reads back to the same value.
fn float(x: f64) -> String {
    format!("{x:?}")
}

/// The key's doc as a field doc: capitalised, with its accepted values and unit.
fn doc(spec: &KeySpec) -> String {
    let mut text = spec.doc.to_owned();
    if let Some(first) = text.get(..1) {
        text.replace_range(..1, &first.to_uppercase());
    }
    let unit = match spec.unit() {
        "" => String::new(),
        u => format!(", in {u}"),
    };
    let godot = match spec.kind {
        KeyKind::Seed => " Godot holds the 64 bits as a signed integer.",
        _ => "",
    };
    match spec.kind {
        // The inspector shows these as a checkbox, a colour picker and a list.
        KeyKind::Switch | KeyKind::Colour | KeyKind::Family => format!("    /// {text}.\n"),
        _ => format!("    /// {text} ({}{unit}).{godot}\n", spec.range_text().replace('`', "")),
    }
}

/// One field: doc, export attribute, starting value, name and type.
fn field(out: &mut String, doc: &str, export: &str, init: &str, name: &str, ty: &str) {
    let _ = write!(out, "{doc}    #[export{export}]\n    #[init(val = {init})]\n    {name}: {ty},\n");
}

/// The struct with one exported field per key, and `to_core` / `from_core`.
fn properties() -> String {
    let mut fields = String::new();
    let mut to_core = String::new();
    let mut from_core = String::new();
    let mut group = None;
    for (i, spec) in KEYS.iter().enumerate() {
        if group != Some(spec.group) {
            let _ = writeln!(fields, "    #[export_group(name = \"{}\")]", spec.group.title());
            group = Some(spec.group);
        }
        let name = spec.inspector;
        let doc = doc(spec);
        let starter = spec.starter();
        let value = format!("KEYS[{i}].value(core)");
        match (spec.kind, starter) {
            (KeyKind::Name, KeyValue::Name(s)) => {
                field(&mut fields, &doc, "", &format!("GString::from({s:?})"), name, "GString");
                let _ = writeln!(to_core, "            KeyValue::Name(self.{name}.to_string()),");
                let _ = writeln!(from_core, "        let {name} = name_of({value});");
            }
            (KeyKind::Seed, KeyValue::Seed(n)) => {
                field(&mut fields, &doc, "", &format!("{}", n as i64), name, "i64");
                let _ = writeln!(to_core, "            KeyValue::Seed(self.{name} as u64),");
                let _ = writeln!(from_core, "        let {name} = seed_of({value});");
            }
            (KeyKind::Count { min, max }, KeyValue::Count(n)) => {
                let exp = if max >= min.saturating_mul(1000) { ", exp" } else { "" };
                let export = format!("(range = ({min}.0, {max}.0, 1.0{exp}))");
                field(&mut fields, &doc, &export, &n.to_string(), name, "i64");
                let _ = writeln!(
                    to_core,
                    "            KeyValue::Count(usize::try_from(self.{name}).unwrap_or(0)),"
                );
                let _ = writeln!(from_core, "        let {name} = count_of({value});");
            }
            (KeyKind::Number { min, max, step, unit, log, .. }, KeyValue::Number(x)) => {
                let exp = if log { ", exp" } else { "" };
                let suffix = if unit.is_empty() { String::new() } else { format!(", suffix = {unit:?}") };
                let export =
                    format!("(range = ({}, {}, {}{exp}{suffix}))", float(min), float(max), float(step));
                field(&mut fields, &doc, &export, &float(x), name, "f64");
                let _ = writeln!(to_core, "            KeyValue::Number(self.{name}),");
                let _ = writeln!(from_core, "        let {name} = number_of({value});");
            }
            (KeyKind::Switch, KeyValue::Switch(b)) => {
                field(&mut fields, &doc, "", &b.to_string(), name, "bool");
                let _ = writeln!(to_core, "            KeyValue::Switch(self.{name}),");
                let _ = writeln!(from_core, "        let {name} = switch_of({value});");
            }
            (KeyKind::Colour, KeyValue::Colour(c)) => {
                let [r, g, b] = c.0;
                let init = format!("Color::from_rgba8({r}, {g}, {b}, 255)");
                field(&mut fields, &doc, "(color_no_alpha)", &init, name, "Color");
                let _ = writeln!(to_core, "            KeyValue::Colour(from_color(self.{name})),");
                let _ = writeln!(from_core, "        let {name} = colour_of({value});");
            }
            (KeyKind::Family, KeyValue::Family(f)) => {
                let names: Vec<String> = LookFamily::ALL
                    .iter()
                    .enumerate()
                    .map(|(n, (_, label))| format!("{}{} = {n}", label[..1].to_uppercase(), &label[1..]))
                    .collect();
                let index = LookFamily::ALL.iter().position(|(g, _)| *g == f).unwrap_or(0);
                let export = format!("(enum = ({}))", names.join(", "));
                field(&mut fields, &doc, &export, &index.to_string(), name, "i64");
                let _ = writeln!(to_core, "            KeyValue::Family(family_at(self.{name})),");
                let _ = writeln!(from_core, "        let {name} = family_index({value});");
            }
            (KeyKind::Place, KeyValue::Place(p)) => {
                let on = format!(
                    "    /// {}{}: on puts it at the latitude and longitude below.\n",
                    spec.doc[..1].to_uppercase(),
                    &spec.doc[1..]
                );
                field(&mut fields, &on, "", &p.is_some().to_string(), &format!("{name}_guaranteed"), "bool");
                let (lat, lon) = p.map_or((0.0, 0.0), |p| (p.lat_deg, p.lon_deg));
                let lat_doc = "    /// Latitude of the place, north positive (-90..=90 °).\n";
                let lat_export = "(range = (-90.0, 90.0, 0.01, suffix = \"°\"))";
                field(&mut fields, lat_doc, lat_export, &float(lat), &format!("{name}_lat_deg"), "f64");
                let lon_doc = "    /// Longitude of the place, east positive (-180..=180 °).\n";
                let lon_export = "(range = (-180.0, 180.0, 0.01, suffix = \"°\"))";
                field(&mut fields, lon_doc, lon_export, &float(lon), &format!("{name}_lon_deg"), "f64");
                let _ = writeln!(
                    to_core,
                    "            place(self.{name}_guaranteed, self.{name}_lat_deg, self.{name}_lon_deg),"
                );
                let _ = writeln!(
                    from_core,
                    "        let ({name}_guaranteed, {name}_lat_deg, {name}_lon_deg) = place_of({value});"
                );
            }
            (kind, value) => panic!("key {}: starter {value:?} is not a {kind:?}", spec.name),
        }
    }
    let mut names = String::new();
    for spec in KEYS {
        let p = spec.inspector;
        let _ = match spec.kind {
            KeyKind::Place => writeln!(names, "            {p}_guaranteed, {p}_lat_deg, {p}_lon_deg,"),
            _ => writeln!(names, "            {p},"),
        };
    }
    format!(
        "// Written by build.rs from watershed::KEYS; do not edit.

/// One planet: every `worlds.json` key as a property, grouped as in the file. Save it as a
/// `.tres`, or get one from a `WorldCatalog`. Emits `changed` whenever a property is edited;
/// nodes holding it regenerate once, deferred.
#[derive(GodotClass)]
#[class(tool, init, base = Resource)]
pub struct WorldSettings {{
{fields}
    base: Base<Resource>,
}}

impl WorldSettings {{
    /// The core settings these properties describe (not validated).
    pub fn to_core(&self) -> watershed::WorldSettings {{
        let values = [
{to_core}        ];
        let mut core = watershed::WorldSettings::default();
        for (spec, value) in KEYS.iter().zip(values) {{
            spec.set(&mut core, value);
        }}
        core
    }}

    /// A resource holding `core`'s values.
    pub fn from_core(core: &watershed::WorldSettings) -> Gd<Self> {{
{from_core}        Gd::from_init_fn(|base| WorldSettings {{
{names}            base,
        }})
    }}
}}
"
    )
}

/// A knob's inspector range: `(range = (min, max, step[, exp][, suffix = "unit"]))`.
fn knob_export(r: HeightmapRange) -> String {
    let exp = if r.log { ", exp" } else { "" };
    let suffix = if r.unit.is_empty() { String::new() } else { format!(", suffix = {:?}", r.unit) };
    format!("(range = ({}, {}, {}{exp}{suffix}))", float(r.min), float(r.max), float(r.step))
}

/// `with_heightmap_knobs!`: wraps a struct, adding one exported field per heightmap knob
/// and `knobs()`.
fn heightmap_properties() -> String {
    let mut fields = String::new();
    let mut values = String::new();
    for key in HEIGHTMAP_KEYS {
        let name = key.name;
        let doc = format!("            /// {}\n", key.doc);
        let mut put = |doc: &str, export: &str, init: &str, name: &str, ty: &str| {
            let _ = write!(
                fields,
                "{doc}            #[export{export}]\n            #[init(val = {init})]\n            {name}: {ty},\n"
            );
        };
        match (key.kind, key.default_value()) {
            (HeightmapKind::Number(r), HeightmapValue::Number(x)) => {
                put(&doc, &knob_export(r), &float(x), name, "f64");
                let _ = writeln!(values, "                HeightmapValue::Number(self.{name}),");
            }
            (HeightmapKind::Switch, HeightmapValue::Switch(on)) => {
                put(&doc, "", &on.to_string(), name, "bool");
                let _ = writeln!(values, "                HeightmapValue::Switch(self.{name}),");
            }
            (HeightmapKind::Optional { range, switch, unset }, HeightmapValue::Optional(x)) => {
                let on_doc =
                    format!("            /// Whether `{name}` applies (off: none, as `{name}` says).\n");
                put(&on_doc, "", &x.is_some().to_string(), switch, "bool");
                put(&doc, &knob_export(range), &float(x.unwrap_or(unset)), name, "f64");
                let _ = writeln!(
                    values,
                    "                HeightmapValue::Optional(self.{switch}.then_some(self.{name})),"
                );
            }
            (kind, value) => panic!("knob {name}: default {value:?} is not a {kind:?}"),
        }
    }
    let (mut erosion_fields, mut choices, mut presets) = (String::new(), String::new(), String::new());
    dial_fields::<Droplets>(1, "Droplets", "Droplets", &mut erosion_fields, &mut choices, &mut presets);
    dial_fields::<WaterSediment>(
        2,
        "WaterSediment",
        "Water + sediment",
        &mut erosion_fields,
        &mut choices,
        &mut presets,
    );
    format!(
        "// Written by build.rs from watershed::HEIGHTMAP_KEYS; do not edit.

/// Wraps a struct, putting one exported field per heightmap knob before its own fields and
/// adding `knobs()`.
macro_rules! with_heightmap_knobs {{
    ($(#[$($meta:tt)*])* pub struct $name:ident {{ $($rest:tt)* }}) => {{
        $(#[$($meta)*])*
        pub struct $name {{
{fields}            $($rest)*
            /// The erosion run on the heightmap before it drains (`watershed grid-world
            /// --erosion`): none, droplets, water + sediment or stream power.
            #[export_group(name = \"Erosion\")]
            #[export(enum = (None = 0, Droplets = 1, WaterSediment = 2, StreamPower = 3))]
            erosion_model: i64,
            /// Sets the dials below to one of the model's presets (default, gentle, gorges;
            /// water + sediment also gpu-rocks); turn them from there.
            #[var(set = set_erosion_preset, hint = ENUM, hint_string = \"default,gentle,gorges,gpu-rocks\")]
            #[export]
            erosion_preset: GString,
            /// Steps the erosion runs (droplets: droplets); 0 for the model's default (a
            /// droplet per four cells, 200 water + sediment steps, 100 stream-power steps).
            #[export(range = (0.0, 100000000.0, 1.0, or_greater))]
            erosion_steps: i64,
            /// Seed of the droplets.
            #[export]
            #[init(val = 1)]
            erosion_seed: i64,
{erosion_fields}        }}

        impl $name {{
            /// The core parameters the knobs describe, each checked against its range; the
            /// first knob out of range otherwise.
            fn knobs(&self) -> Result<watershed::HeightmapParams, String> {{
                use watershed::{{HeightmapValue, HEIGHTMAP_KEYS}};
                let values = [
{values}                ];
                let mut params = watershed::HeightmapParams::default();
                for (key, value) in HEIGHTMAP_KEYS.iter().zip(values) {{
                    key.set(&mut params, value)?;
                }}
                Ok(params)
            }}

            /// The erosion the properties describe, each dial checked against its range.
            fn erosion(&self) -> Result<watershed::GridErosion, String> {{
                use watershed::GridErosion;
                match self.erosion_model {{
                    0 => Ok(GridErosion::None),
{choices}                    3 => Ok(GridErosion::StreamPower),
                    m => Err(format!(\"erosion_model {{m}}: 0 none, 1 droplets, 2 water + sediment, 3 stream power\")),
                }}
            }}

            /// Sets every dial of the chosen model to its preset `name` (an error for a
            /// preset the model lacks; nothing for a model without dials, or for an empty
            /// name: no preset, the dials as they are — what a copy of the properties sets).
            fn apply_erosion_preset(&mut self, name: GString) {{
                use watershed::Dials;
                let text = name.to_string();
                let applied: Result<(), String> = match self.erosion_model {{
                    _ if text.is_empty() => Ok(()),
{presets}                    _ => Ok(()),
                }};
                match applied {{
                    Ok(()) => self.erosion_preset = name,
                    Err(e) => godot_error!(\"HeightmapWatershed.erosion_preset: {{e}}\"),
                }}
            }}
        }}
    }};
}}
"
    )
}

/// One exported field per dial of model `D` (index `model` of `erosion_model`, the core type
/// named `ty`, shown under `title`), the arm of `erosion()` that reads them and the arm of `set_erosion_preset()`
/// that writes a preset into them.
fn dial_fields<D: Dials>(
    model: usize,
    ty: &str,
    title: &str,
    fields: &mut String,
    choices: &mut String,
    presets: &mut String,
) {
    let prefix = format!("{}_", D::MODEL.replace('-', "_"));
    let _ = writeln!(fields, "            #[export_subgroup(name = \"{title}\", prefix = \"{prefix}\")]");
    let defaults = D::preset("default").map(|d| d.values()).unwrap_or_default();
    let mut pairs = String::new();
    let mut sets = String::new();
    for dial in D::dials() {
        let name = format!("{prefix}{}", dial.name);
        let (lo, hi) = dial.range;
        let step = if dial.whole { 1.0 } else { 1e-4 };
        let value = defaults.iter().find(|(n, _)| *n == dial.name).map_or(lo, |(_, v)| *v);
        let _ = write!(
            fields,
            "            /// {} ({}..={}).\n            #[export(range = ({}, {}, {step:?}))]\n            #[init(val = {})]\n            {name}: f64,\n",
            dial.what,
            lo,
            hi,
            float(lo),
            float(hi),
            float(value),
        );
        let _ = write!(pairs, "(\"{}\".to_owned(), self.{name}), ", dial.name);
        let _ = writeln!(sets, "                                \"{}\" => self.{name} = value,", dial.name);
    }
    let _ = writeln!(
        choices,
        "                    {model} => GridErosion::choose(\"{}\", None, &[{pairs}]),",
        D::MODEL
    );
    let _ = write!(
        presets,
        "                    {model} => watershed::{ty}::preset(&text).map(|dials| {{\n                        for (dial, value) in dials.values() {{\n                            match dial {{\n{sets}                                _ => {{}}\n                            }}\n                        }}\n                    }}),\n",
    );
}
