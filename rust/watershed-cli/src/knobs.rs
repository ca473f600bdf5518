//! The heightmap pipeline's knobs as command-line flags, one per row of
//! [`watershed::HEIGHTMAP_KEYS`]: the flag, its help, its range and its default come from
//! the table, as `HeightmapWatershed`'s inspector properties do.

use clap::{Arg, ArgMatches, Args, Command, FromArgMatches};
use watershed::{HeightmapKey, HeightmapParams, HeightmapValue, HEIGHTMAP_KEYS};

/// The knobs given on the command line, in table order; the others keep their defaults.
#[derive(Debug, Clone, Default)]
pub struct Knobs {
    given: Vec<(&'static HeightmapKey, HeightmapValue)>,
}

impl Knobs {
    /// `params` with every given knob set.
    pub fn apply(&self, mut params: HeightmapParams) -> Result<HeightmapParams, String> {
        for (key, value) in &self.given {
            key.set(&mut params, *value).map_err(|e| format!("--{}: {e}", key.flag))?;
        }
        Ok(params)
    }

    /// Whether the knob named `name` (`cell_m`) was given.
    pub fn gave(&self, name: &str) -> bool {
        self.given.iter().any(|(key, _)| key.name == name)
    }
}

/// A knob's help: its meaning, its accepted values and its default.
fn help(key: &HeightmapKey) -> String {
    let default = match key.default_value() {
        HeightmapValue::Number(x) | HeightmapValue::Optional(Some(x)) => x.to_string(),
        HeightmapValue::Switch(on) => on.to_string(),
        HeightmapValue::Optional(None) => "none".to_owned(),
    };
    let values = key.range().map_or_else(|| "true or false".to_owned(), |r| format!("{}..={}", r.min, r.max));
    format!("{} ({values}) [default: {default}]", key.doc.trim_end_matches('.'))
}

/// What a knob's value is called in the usage line: its unit, or what it is.
fn value_name(key: &HeightmapKey) -> &'static str {
    match key.range().map(|r| r.unit) {
        None => "BOOL",
        Some("m") => "M",
        Some("m²") => "M2",
        Some("m/s") => "M_S",
        Some(_) => "FRACTION",
    }
}

impl Args for Knobs {
    fn augment_args(command: Command) -> Command {
        HEIGHTMAP_KEYS.iter().fold(command, |command, key: &'static HeightmapKey| {
            command.arg(
                Arg::new(key.name)
                    .long(key.flag)
                    .value_name(value_name(key))
                    .help(help(key))
                    .allow_negative_numbers(true)
                    .value_parser(move |text: &str| key.parse(text)),
            )
        })
    }

    fn augment_args_for_update(command: Command) -> Command {
        Self::augment_args(command)
    }
}

impl FromArgMatches for Knobs {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let given = HEIGHTMAP_KEYS
            .iter()
            .filter_map(|key| Some((key, *matches.get_one::<HeightmapValue>(key.name)?)))
            .collect();
        Ok(Knobs { given })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

/// The range check of the knob named `name`, for flags of other commands that mean the same
/// (`grid-drain --cell-m`): the number `text` holds, or the message.
pub fn number(name: &str, text: &str) -> Result<f64, String> {
    match watershed::heightmap_key(name).and_then(|key| key.range()) {
        Some(range) => range.parse(text),
        None => Err(format!("{name} is not a numeric heightmap knob")),
    }
}
