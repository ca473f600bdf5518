//! The erosion a heightmap gets before it drains: a model chosen by name, its dials from a
//! preset and any turned by name, and how long it runs. The command line's `grid-world`
//! and `erode` and the inspector's `HeightmapWatershed` choose it the same way.

use super::dials::Dials;
use super::droplets::{erode_droplets, Droplets};
use super::stream_power::{erode_stream_power, StreamPower};
use super::water_sediment::{erode_water_sediment, WaterSediment};
use super::ErosionReport;
use crate::drainage::DrainageParams;
use crate::ground::grid::Grid;

/// A model of [`GridErosion`] with its dials.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GridErosion {
    /// None: the heights as given.
    None,
    /// Droplet (particle) erosion.
    Droplets(Droplets),
    /// The water + sediment grid model.
    WaterSediment(WaterSediment),
    /// Stream-power incision and diffusion, its constants the model's defaults.
    StreamPower,
}

impl GridErosion {
    /// The models' names, in the order an inspector lists them.
    pub const MODELS: [&'static str; 4] = ["none", "droplets", "water-sediment", "stream-power"];

    /// The model named `model` (one of [`GridErosion::MODELS`]) with the dials of its
    /// `preset` (`None`: "default") and then each of `dials` set, in order.
    ///
    /// # Errors
    /// An unknown model or preset, a dial the model lacks or a value outside its range,
    /// naming what is wrong ([`Dials::with`]); a preset or dials for "none" or
    /// "stream-power", which have none.
    pub fn choose(model: &str, preset: Option<&str>, dials: &[(String, f64)]) -> Result<Self, String> {
        match model {
            "droplets" => turned(preset, dials).map(GridErosion::Droplets),
            "water-sediment" => turned(preset, dials).map(GridErosion::WaterSediment),
            "none" | "stream-power" if preset.is_none() && dials.is_empty() => {
                Ok(if model == "none" { GridErosion::None } else { GridErosion::StreamPower })
            }
            "none" | "stream-power" => Err(format!("{model} has no presets or dials")),
            _ => {
                Err(format!("no erosion model '{model}'; the models are {}", GridErosion::MODELS.join(", ")))
            }
        }
    }

    /// The model's name, as [`GridErosion::MODELS`] spells it.
    pub fn name(&self) -> &'static str {
        match self {
            GridErosion::None => "none",
            GridErosion::Droplets(_) => Droplets::MODEL,
            GridErosion::WaterSediment(_) => WaterSediment::MODEL,
            GridErosion::StreamPower => "stream-power",
        }
    }

    /// Every dial of the model by name with its value (none for "none" and "stream-power").
    pub fn dials(&self) -> Vec<(&'static str, f64)> {
        match self {
            GridErosion::Droplets(d) => d.values(),
            GridErosion::WaterSediment(d) => d.values(),
            GridErosion::None | GridErosion::StreamPower => Vec::new(),
        }
    }

    /// The steps a run takes unless told otherwise on a map of `cells` cells: a droplet per
    /// four cells, 200 water + sediment steps, 100 stream-power steps.
    pub fn default_steps(&self, cells: usize) -> usize {
        match self {
            GridErosion::None => 0,
            GridErosion::Droplets(_) => cells / 4,
            GridErosion::WaterSediment(_) => 200,
            GridErosion::StreamPower => 100,
        }
    }

    /// Erodes `heights` (one per cell of `grid`, metres) for `steps` steps (droplets:
    /// droplets; `None`: [`GridErosion::default_steps`]), water leaving by `outlets`,
    /// droplets drawn from `seed`; `None` for the model "none".
    pub fn run(
        &self,
        grid: &Grid,
        heights: &mut [f64],
        outlets: &DrainageParams,
        steps: Option<usize>,
        seed: u64,
    ) -> Option<ErosionReport> {
        let steps = steps.unwrap_or_else(|| self.default_steps(grid.width * grid.height));
        let quiet = &mut |_: usize, _: &[f64], _: &[f64]| {};
        match self {
            GridErosion::None => None,
            GridErosion::Droplets(d) => {
                Some(erode_droplets(grid, heights, d, steps, seed, usize::MAX, quiet))
            }
            GridErosion::WaterSediment(d) => {
                Some(erode_water_sediment(grid, heights, d, steps, usize::MAX, quiet).0)
            }
            GridErosion::StreamPower => {
                Some(erode_stream_power(grid, heights, &StreamPower::default(), outlets, steps, quiet))
            }
        }
    }
}

/// The dials of model `D`: its `preset` (`None`: "default") with each of `dials` set, in
/// order.
///
/// # Errors
/// An unknown preset, a dial the model lacks or a value outside its range ([`Dials::with`]).
pub fn turned<D: Dials>(preset: Option<&str>, dials: &[(String, f64)]) -> Result<D, String> {
    let start = D::preset(preset.unwrap_or("default"))?;
    dials.iter().try_fold(start, |d, (name, value)| d.with(name, *value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_model_is_chosen_by_name_with_its_preset_and_dials() {
        let gorges = GridErosion::choose("water-sediment", Some("gorges"), &[]).expect("a preset");
        assert_eq!(gorges, GridErosion::WaterSediment(WaterSediment::preset("gorges").expect("gorges")));
        let turned = GridErosion::choose("water-sediment", Some("gorges"), &[("rain".into(), 0.02)]);
        let rain = turned.expect("in range").dials().into_iter().find(|d| d.0 == "rain").expect("rain");
        assert_eq!(rain.1, 0.02);
        assert_eq!(GridErosion::choose("droplets", None, &[]), Ok(GridErosion::Droplets(Droplets::DEFAULT)));
        assert_eq!(GridErosion::choose("none", None, &[]), Ok(GridErosion::None));
        for (i, name) in GridErosion::MODELS.into_iter().enumerate() {
            let model = GridErosion::choose(name, None, &[]).expect("every model by its name");
            assert_eq!(model.name(), GridErosion::MODELS[i]);
        }
    }

    #[test]
    fn bad_choices_say_what_is_wrong() {
        let err = |r: Result<GridErosion, String>| r.expect_err("refused");
        assert!(err(GridErosion::choose("rivers", None, &[])).contains("no erosion model 'rivers'"));
        assert!(err(GridErosion::choose("stream-power", Some("gorges"), &[])).contains("has no presets"));
        assert!(err(GridErosion::choose("none", None, &[("rain".into(), 0.1)])).contains("none has no"));
        assert!(err(GridErosion::choose("droplets", Some("cliffs"), &[])).contains("cliffs"));
        let misspelt = err(GridErosion::choose("water-sediment", None, &[("rian".into(), 0.1)]));
        assert!(misspelt.contains("did you mean 'rain'"), "{misspelt}");
    }

    #[test]
    fn a_run_moves_ground_and_none_leaves_it() {
        let grid = Grid { width: 24, height: 24, cell_m: 2.0 };
        let start: Vec<f64> =
            (0..24 * 24).map(|i| (i / 24) as f64 * 0.5 + ((i % 24) as f64 - 12.0).abs() * 0.3).collect();
        let outlets = DrainageParams::outlets(None, true);
        for name in GridErosion::MODELS {
            let model = GridErosion::choose(name, None, &[]).expect("a model");
            let mut heights = start.clone();
            let report = model.run(&grid, &mut heights, &outlets, Some(20), 7);
            assert_eq!(report.is_none(), name == "none", "{name}");
            assert_eq!(heights == start, name == "none", "{name} moves ground");
        }
    }
}
