//! The grid erosion models' dials by name: what each does, its range, named presets, and
//! setting one from a name and a value (the command line, an inspector) with strict checks.
//!
//! The names are shared where the meaning is: `carry`, `pickup`, `settle` and `evaporate`
//! mean the same in the water + sediment model and the droplet model.

use super::droplets::Droplets;
use super::water_sediment::WaterSediment;

/// One dial of a model: its name, what it does (with its unit) and its range.
pub struct Dial<T> {
    /// The dial's name (`snake_case`).
    pub name: &'static str,
    /// What turning it up does, with its unit.
    pub what: &'static str,
    /// The values it takes, inclusive.
    pub range: (f64, f64),
    /// Whether it takes whole numbers only.
    pub whole: bool,
    get: fn(&T) -> f64,
    set: fn(&mut T, f64),
}

/// A named set of every dial of a model.
pub struct Preset<T: 'static> {
    /// The preset's name (`kebab-case`).
    pub name: &'static str,
    /// What ground it makes.
    pub what: &'static str,
    /// Its dials.
    pub dials: T,
}

/// A grid erosion model's dials, presets and checks.
pub trait Dials: Copy + Sized + 'static {
    /// The model's name as the command line spells it.
    const MODEL: &'static str;

    /// Every dial, in the order a listing shows them.
    fn dials() -> &'static [Dial<Self>];

    /// The named presets; the first is the model's default.
    fn presets() -> &'static [Preset<Self>];

    /// The preset called `name`; the error lists the presets.
    fn preset(name: &str) -> Result<Self, String> {
        let all = Self::presets();
        all.iter().find(|p| p.name == name).map(|p| p.dials).ok_or_else(|| {
            let names: Vec<&str> = all.iter().map(|p| p.name).collect();
            format!("{}: no preset '{name}'; the presets are {}", Self::MODEL, names.join(", "))
        })
    }

    /// These dials with `name` turned to `value`; the error names the dial's range, or the
    /// closest dial of the model when it has none called `name`.
    fn with(mut self, name: &str, value: f64) -> Result<Self, String> {
        let dial = find(Self::dials(), name).map_err(|closest| match closest {
            Some(closest) => format!("{} has no dial '{name}'; did you mean '{closest}'?", Self::MODEL),
            None => {
                let names: Vec<&str> = Self::dials().iter().map(|d| d.name).collect();
                format!("{} has no dial '{name}'; its dials are {}", Self::MODEL, names.join(", "))
            }
        })?;
        check(dial, value).map_err(|e| format!("{}: {e}", Self::MODEL))?;
        (dial.set)(&mut self, value);
        Ok(self)
    }

    /// Every dial's name and value, in [`Dials::dials`] order.
    fn values(&self) -> Vec<(&'static str, f64)> {
        Self::dials().iter().map(|d| (d.name, (d.get)(self))).collect()
    }
}

/// Edits within which an unknown name is taken for a misspelt dial.
const MISSPELT_EDITS: usize = 2;

/// The dial called `name`, or the name of the one it looks misspelt from, if any.
fn find<'a, T>(dials: &'a [Dial<T>], name: &str) -> Result<&'a Dial<T>, Option<&'static str>> {
    dials.iter().find(|d| d.name == name).ok_or_else(|| {
        dials
            .iter()
            .map(|d| (strsim::levenshtein(name, d.name), d.name))
            .min()
            .filter(|&(edits, _)| edits <= MISSPELT_EDITS)
            .map(|(_, closest)| closest)
    })
}

/// `x` as a person would type it: plain, or in exponent form when very large or small.
fn shown(x: f64) -> String {
    if x != 0.0 && x.is_finite() && !(1e-6..1e15).contains(&x.abs()) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

/// `value` within `dial`'s range (and whole, where it must be).
fn check<T>(dial: &Dial<T>, value: f64) -> Result<(), String> {
    let (lo, hi) = dial.range;
    if !(value.is_finite() && (lo..=hi).contains(&value)) {
        return Err(format!("{} must be within {lo}..={hi}, got {}", dial.name, shown(value)));
    }
    if dial.whole && value.fract() != 0.0 {
        return Err(format!("{} takes whole numbers, got {}", dial.name, shown(value)));
    }
    Ok(())
}

impl Dials for WaterSediment {
    const MODEL: &'static str = "water-sediment";

    fn dials() -> &'static [Dial<Self>] {
        &[
            Dial {
                name: "rain",
                what: "water added to every cell each step, metres: more water runs and carries more",
                range: (0.0, 1.0),
                whole: false,
                get: |d| d.rain_m,
                set: |d, v| d.rain_m = v,
            },
            Dial {
                name: "evaporate",
                what: "share of the water that dries each step: streams stay thinner and shorter",
                range: (0.0, 1.0),
                whole: false,
                get: |d| d.evaporate,
                set: |d, v| d.evaporate = v,
            },
            Dial {
                name: "carry",
                what: "sediment a metre of water carries per √metre of drop: the water's appetite",
                range: (0.0, 1000.0),
                whole: false,
                get: |d| d.carry,
                set: |d, v| d.carry = v,
            },
            Dial {
                name: "pickup",
                what: "share of the free capacity picked up each step: how fast water bites",
                range: (0.0, 1.0),
                whole: false,
                get: |d| d.pickup,
                set: |d, v| d.pickup = v,
            },
            Dial {
                name: "settle",
                what: "share of the sediment over capacity that settles each step: where fans and flats form",
                range: (0.0, 1.0),
                whole: false,
                get: |d| d.settle,
                set: |d, v| d.settle = v,
            },
            Dial {
                name: "max_cut",
                what: "the most ground one cell loses in one step, metres: caps how deep a step cuts",
                range: (0.0, 100.0),
                whole: false,
                get: |d| d.max_cut_m,
                set: |d, v| d.max_cut_m = v,
            },
        ]
    }

    fn presets() -> &'static [Preset<Self>] {
        const DEFAULT: WaterSediment = WaterSediment::DEFAULT;
        &[
            Preset { name: "default", what: "channels and fans on metre-scale relief", dials: DEFAULT },
            Preset {
                name: "gentle",
                what: "little rain that mostly dries, slow to bite, quick to settle: softened slopes, shallow rills",
                dials: WaterSediment {
                    rain_m: 0.005,
                    evaporate: 0.1,
                    carry: 0.2,
                    pickup: 0.05,
                    max_cut_m: 0.02,
                    settle: 0.5,
                    ..DEFAULT
                },
            },
            Preset {
                name: "gorges",
                what: "heavy rain, hungry water, deep cuts, little settling: incised valleys",
                dials: WaterSediment {
                    rain_m: 0.02,
                    evaporate: 0.03,
                    carry: 2.0,
                    pickup: 0.3,
                    max_cut_m: 0.2,
                    settle: 0.1,
                    ..DEFAULT
                },
            },
            Preset {
                name: "gpu-rocks",
                what: "the constants of the GPU.js erosion lesson (seed 003) for relief of about one unit: rain 2e-5, carry 60, pick-up 0.3, settle 0.05, max cut 0.004, no evaporation",
                dials: WaterSediment {
                    rain_m: 0.00002,
                    evaporate: 0.0,
                    carry: 60.0,
                    pickup: 0.3,
                    max_cut_m: 0.004,
                    settle: 0.05,
                    ..DEFAULT
                },
            },
        ]
    }
}

impl Dials for Droplets {
    const MODEL: &'static str = "droplets";

    fn dials() -> &'static [Dial<Self>] {
        &[
            Dial {
                name: "inertia",
                what: "share of its direction a droplet keeps each step: straighter, smoother paths",
                range: (0.0, 1.0),
                whole: false,
                get: |d| d.inertia,
                set: |d, v| d.inertia = v,
            },
            Dial {
                name: "carry",
                what: "sediment a droplet carries per unit of fall, speed and water: its appetite",
                range: (0.0, 1000.0),
                whole: false,
                get: |d| d.capacity,
                set: |d, v| d.capacity = v,
            },
            Dial {
                name: "min_slope",
                what: "the fall that counts at least, so droplets on flats still carry a little",
                range: (0.0, 10.0),
                whole: false,
                get: |d| d.min_slope,
                set: |d, v| d.min_slope = v,
            },
            Dial {
                name: "pickup",
                what: "share of the free capacity picked up each step: how fast droplets bite",
                range: (0.0, 1.0),
                whole: false,
                get: |d| d.erode,
                set: |d, v| d.erode = v,
            },
            Dial {
                name: "settle",
                what: "share of the excess sediment dropped each step: where fans form",
                range: (0.0, 1.0),
                whole: false,
                get: |d| d.deposit,
                set: |d, v| d.deposit = v,
            },
            Dial {
                name: "evaporate",
                what: "share of a droplet's water lost each step: shorter runs",
                range: (0.0, 1.0),
                whole: false,
                get: |d| d.evaporate,
                set: |d, v| d.evaporate = v,
            },
            Dial {
                name: "gravity",
                what: "how much a fall speeds a droplet up: faster droplets carry more",
                range: (0.0, 100.0),
                whole: false,
                get: |d| d.gravity,
                set: |d, v| d.gravity = v,
            },
            Dial {
                name: "radius",
                what: "radius of the patch a droplet wears, cells: wider, smoother channels",
                range: (0.0, 16.0),
                whole: true,
                get: |d| d.radius as f64,
                set: |d, v| d.radius = v as usize,
            },
            Dial {
                name: "lifetime",
                what: "steps before a droplet stops: longer rivers of droplets",
                range: (1.0, 10_000.0),
                whole: true,
                get: |d| d.max_lifetime as f64,
                set: |d, v| d.max_lifetime = v as usize,
            },
            Dial {
                name: "start_water",
                what: "water a droplet starts with",
                range: (0.001, 100.0),
                whole: false,
                get: |d| d.initial_water,
                set: |d, v| d.initial_water = v,
            },
            Dial {
                name: "start_speed",
                what: "speed a droplet starts with, cells a step",
                range: (0.0, 100.0),
                whole: false,
                get: |d| d.initial_speed,
                set: |d, v| d.initial_speed = v,
            },
        ]
    }

    fn presets() -> &'static [Preset<Self>] {
        const DEFAULT: Droplets = Droplets::DEFAULT;
        &[
            Preset {
                name: "default",
                what: "the constants of the common implementations (Beyer 2015)",
                dials: DEFAULT,
            },
            Preset {
                name: "gentle",
                what: "slow bites, quick settling, wide patches: smoothed slopes and soft gullies",
                dials: Droplets { capacity: 2.0, erode: 0.1, deposit: 0.5, radius: 4, ..DEFAULT },
            },
            Preset {
                name: "gorges",
                what: "hungry, long-lived droplets on narrow patches: sharp, deep gullies",
                dials: Droplets {
                    capacity: 8.0,
                    erode: 0.5,
                    deposit: 0.1,
                    radius: 2,
                    max_lifetime: 60,
                    ..DEFAULT
                },
            },
        ]
    }
}

/// Both grid models' dials and presets as Markdown: a table of the dials (name, range,
/// default, what it does) and one of the presets (name, what, the dials they change).
pub fn dials_markdown() -> String {
    let mut out = String::new();
    section::<WaterSediment>(&mut out);
    section::<Droplets>(&mut out);
    out
}

/// One model's tables for [`dials_markdown`].
fn section<D: Dials>(out: &mut String) {
    let defaults = D::presets()[0].dials.values();
    out.push_str(&format!(
        "### {}\n\n| dial | range | default | turning it up |\n|---|---|---|---|\n",
        D::MODEL
    ));
    for (dial, (_, default)) in D::dials().iter().zip(&defaults) {
        let (lo, hi) = dial.range;
        out.push_str(&format!("| `{}` | {lo}..={hi} | {default} | {} |\n", dial.name, dial.what));
    }
    out.push_str("\n| preset | what | dials it turns |\n|---|---|---|\n");
    for p in D::presets() {
        let turned: Vec<String> = p
            .dials
            .values()
            .iter()
            .zip(&defaults)
            .filter(|((_, v), (_, d))| v != d)
            .map(|((name, v), _)| format!("{name} {v}"))
            .collect();
        let turned = if turned.is_empty() { "(the defaults)".to_owned() } else { turned.join(", ") };
        out.push_str(&format!("| `{}` | {} | {turned} |\n", p.name, p.what));
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::{dials_markdown, Dials, Droplets, WaterSediment};

    #[test]
    fn the_markdown_lists_every_dial_and_preset_once() {
        let text = dials_markdown();
        for name in
            WaterSediment::dials().iter().map(|d| d.name).chain(Droplets::dials().iter().map(|d| d.name))
        {
            assert!(text.contains(&format!("| `{name}` |")), "{name} missing");
        }
        assert_eq!(text.matches("| `gorges` |").count(), 2);
        assert!(text.contains("| `gentle` | little rain"), "{text}");
        assert!(
            text.contains("rain 0.00002, evaporate 0, carry 60, pickup 0.3, settle 0.05, max_cut 0.004"),
            "{text}"
        );
    }

    #[test]
    fn the_first_presets_are_the_models_defaults() {
        assert_eq!(WaterSediment::preset("default"), Ok(WaterSediment::default()));
        assert_eq!(Droplets::preset("default"), Ok(Droplets::default()));
    }

    #[test]
    fn every_preset_keeps_its_dials_in_range_and_differs_from_the_others() {
        fn check<T: Dials + PartialEq + std::fmt::Debug>() {
            for p in T::presets() {
                for (name, value) in p.dials.values() {
                    assert_eq!(p.dials.with(name, value).as_ref(), Ok(&p.dials), "{} {name}", p.name);
                }
            }
            for (a, pa) in T::presets().iter().enumerate() {
                for pb in &T::presets()[a + 1..] {
                    assert_ne!(pa.dials, pb.dials, "{} and {} are the same", pa.name, pb.name);
                }
            }
        }
        check::<WaterSediment>();
        check::<Droplets>();
    }

    #[test]
    fn a_dial_turns_only_itself() {
        let base = WaterSediment::default();
        let turned = base.with("pickup", 0.8).map(|d| d.values());
        let expected: Vec<_> =
            base.values().into_iter().map(|(n, v)| (n, if n == "pickup" { 0.8 } else { v })).collect();
        assert_eq!(turned, Ok(expected));
        assert_eq!(Droplets::default().with("radius", 5.0).map(|d| d.radius), Ok(5));
    }

    #[test]
    fn bad_names_and_values_are_refused_with_what_is_wrong() {
        let d = WaterSediment::default();
        assert_eq!(
            d.with("rian", 0.1).err().as_deref(),
            Some("water-sediment has no dial 'rian'; did you mean 'rain'?")
        );
        assert_eq!(
            d.with("pickup", 1.5).err().as_deref(),
            Some("water-sediment: pickup must be within 0..=1, got 1.5")
        );
        assert_eq!(
            d.with("carry", f64::NAN).err().as_deref(),
            Some("water-sediment: carry must be within 0..=1000, got NaN")
        );
        assert_eq!(
            Droplets::default().with("radius", 2.5).err().as_deref(),
            Some("droplets: radius takes whole numbers, got 2.5")
        );
        assert_eq!(
            Droplets::default().with("max_cut", 0.1).err().as_deref(),
            Some(
                "droplets has no dial 'max_cut'; its dials are inertia, carry, min_slope, pickup, settle, \
                 evaporate, gravity, radius, lifetime, start_water, start_speed"
            )
        );
        assert_eq!(
            WaterSediment::preset("steep").err().as_deref(),
            Some("water-sediment: no preset 'steep'; the presets are default, gentle, gorges, gpu-rocks")
        );
    }
}
