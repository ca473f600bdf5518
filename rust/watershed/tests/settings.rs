//! worlds.json loading: the shipped file, and every kind of bad input with its message.

use serde_json::{json, Value};
use watershed::testkit::{self, SHIPPED_WORLDS};
use watershed::{WorldCatalog, WorldSettings, KEYS};

fn shipped_json() -> Value {
    serde_json::from_str(SHIPPED_WORLDS).expect("shipped worlds.json is JSON")
}

/// The shipped file with `edit` applied to world `index`, loaded; the error messages.
fn errors_after(edit: impl FnOnce(&mut serde_json::Map<String, Value>)) -> Vec<String> {
    let mut doc = shipped_json();
    edit(doc["worlds"][0].as_object_mut().expect("world 0 is an object"));
    match WorldCatalog::from_json(&doc.to_string()) {
        Ok(_) => Vec::new(),
        Err(e) => e.0.into_iter().map(|e| e.message).collect(),
    }
}

#[test]
fn shipped_worlds_load_with_the_nine_names() {
    let c = testkit::shipped();
    assert_eq!(
        c.names(),
        [
            "home",
            "dry_moon",
            "ocean_world",
            "ashfall",
            "redmesa",
            "frostline",
            "pebble",
            "archipelago",
            "highlands"
        ]
    );
    let home = c.get("home").expect("home");
    assert_eq!(home.radius_m, 10_000.0);
    assert_eq!(home.sea_level_m, -90.0);
    assert!(home.sea && home.rivers && home.lakes);
    let moon = c.get("dry_moon").expect("dry_moon");
    assert!(moon.craters && !moon.sea && !moon.rivers);
    let ocean = c.get("ocean_world").expect("ocean_world");
    assert!(ocean.sea_level_m > 0.0, "the ocean world's sea stands among the hills");
    assert!(c.get("pebble").expect("pebble").radius_m <= 2000.0, "one small world for quick tests");
}

#[test]
fn every_world_has_every_key_and_nothing_else() {
    for w in shipped_json()["worlds"].as_array().expect("array") {
        let keys: Vec<&str> = w.as_object().expect("object").keys().map(String::as_str).collect();
        let mut known: Vec<&str> = KEYS.iter().map(|k| k.name).collect();
        known.sort_unstable();
        let mut keys = keys;
        keys.sort_unstable();
        assert_eq!(keys, known);
    }
}

#[test]
fn settings_round_trip_through_json() {
    for w in &testkit::shipped().worlds {
        let back = WorldSettings::from_value(&w.to_value(), "worlds[0]").expect("round trip");
        assert_eq!(&back, w);
        assert_eq!(back.digest(), w.digest());
    }
}

#[test]
fn misspelt_key_names_world_key_and_suggestion() {
    let errors = errors_after(|w| {
        let v = w.remove("sea_level_m").expect("key");
        w.insert("sea_levle_m".into(), v);
    });
    assert_eq!(
        errors,
        [
            "world 'home': unknown key 'sea_levle_m'; did you mean 'sea_level_m'?",
            "world 'home' (worlds[0].sea_level_m): missing key 'sea_level_m'",
        ]
    );
}

#[test]
fn wrong_types_name_the_path() {
    let errors = errors_after(|w| {
        w.insert("radius_m".into(), json!("10 km"));
        w.insert("sea".into(), json!(1));
        w.insert("sand_color".into(), json!("#12345g"));
        w.insert("seed".into(), json!(-3));
        w.insert("lake_at".into(), json!({"lat_deg": "north", "lon": 3}));
        w.insert("look_family".into(), json!("gothic"));
    });
    assert_eq!(
        errors,
        [
            "world 'home' (worlds[0].seed): expected a whole number in 0..=18446744073709551615, got -3",
            "world 'home' (worlds[0].radius_m): expected a number, got a string",
            "world 'home' (worlds[0].lake_at): unknown key 'lon' in a place; expected lat_deg and lon_deg",
            "world 'home' (worlds[0].lake_at.lat_deg): expected a number, got a string",
            "world 'home' (worlds[0].lake_at.lon_deg): missing key 'lon_deg'",
            "world 'home' (worlds[0].sea): expected true or false, got a number",
            "world 'home' (worlds[0].look_family): expected one of temperate, volcanic, desert, glacial, got \"gothic\"",
            "world 'home' (worlds[0].sand_color): expected a colour \"#rrggbb\", got \"#12345g\"",
        ]
    );
}

#[test]
fn out_of_range_values_state_range_and_value() {
    let errors = errors_after(|w| {
        w.insert("sea_level_m".into(), json!(-900.0));
        w.insert("climate".into(), json!(1.5));
        w.insert("lake_at".into(), json!({"lat_deg": 95.0, "lon_deg": 0.0}));
        w.insert("name".into(), json!("Home World"));
    });
    assert_eq!(
        errors,
        [
            "world 'Home World' (worlds[0].name): name must be lowercase letters, digits and '_', got \"Home World\"",
            "world 'Home World' (worlds[0].sea_level_m): sea_level_m must be within ±relief_m (±600), got -900",
            "world 'Home World' (worlds[0].lake_at.lat_deg): lat_deg must be within -90..=90, got 95",
            "world 'Home World' (worlds[0].climate): climate must be within -1..=1, got 1.5",
        ]
    );
}

#[test]
fn non_finite_values_are_rejected_by_validate() {
    // JSON cannot spell NaN, but settings also arrive from the Godot inspector.
    let mut w = testkit::world("home");
    w.relief_m = f64::NAN;
    w.look.snow_line = f64::INFINITY;
    let paths: Vec<String> = w.validate().into_iter().map(|e| e.path).collect();
    assert_eq!(paths, ["relief_m", "sea_level_m", "crater_depth_m", "snow_line"]);
}

#[test]
fn duplicate_names_and_errors_in_several_worlds_are_all_reported() {
    let mut doc = shipped_json();
    let worlds = doc["worlds"].as_array_mut().expect("array");
    worlds[1]["name"] = json!("home");
    worlds[2]["relief_m"] = json!(5.0);
    worlds[8].as_object_mut().expect("object").remove("mesas");
    let errors: Vec<String> = match WorldCatalog::from_json(&doc.to_string()) {
        Ok(_) => panic!("bad file accepted"),
        Err(e) => e.0.into_iter().map(|e| e.message).collect(),
    };
    assert_eq!(
        errors,
        [
            "world 'home' (worlds[1].name): duplicate world name",
            "world 'ocean_world' (worlds[2].relief_m): relief_m must be within 10..=radius_m/10 (1000), got 5",
            "world 'ocean_world' (worlds[2].sea_level_m): sea_level_m must be within ±relief_m (±5), got 60",
            "world 'ocean_world' (worlds[2].crater_depth_m): crater_depth_m must be within 0..=relief_m (5), got 20",
            "world 'highlands' (worlds[8].mesas): missing key 'mesas'",
        ]
    );
}

#[test]
fn file_level_problems_are_errors() {
    for (text, expected) in [
        ("[1]", "expected an object {\"worlds\": [...]}, got an array"),
        ("{\"worlds\": {}}", "worlds: expected an array of world objects, got an object"),
        ("{}", "missing key 'worlds'"),
        ("{\"worlds\": [], \"world\": 1}", "unknown top-level key 'world'; the file holds only \"worlds\""),
        ("{\"worlds\": [3]}", "worlds[0]: expected a world object, got a number"),
    ] {
        let e = WorldCatalog::from_json(text).expect_err(text);
        assert_eq!(e.0[0].message, expected, "{text}");
    }
    let e = WorldCatalog::from_json("{\"worlds\": [").expect_err("truncated");
    assert!(e.0[0].message.starts_with("not valid JSON: "), "{}", e.0[0].message);
}
