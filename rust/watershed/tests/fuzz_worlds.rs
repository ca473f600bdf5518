//! Fuzzing worlds.json: seeded mutations of the shipped file never panic the loader that
//! `watershed check` and the Godot `WorldCatalog` share, and every error says where it is.
//!
//! A fixed budget: `CASES` mutants from the named seed, the same ones on every run.

use serde_json::{json, Value};
use std::panic::{catch_unwind, AssertUnwindSafe};
use watershed::testkit::{FUZZ_SEED, SHIPPED_WORLDS};
use watershed::{estimate_solve, ConfigError, ConfigErrors, SplitMix64, WorldCatalog, WorldSettings, KEYS};

/// Mutants per mutation family.
const CASES: usize = 700;

/// The first 300 characters of a hostile input, for a failure message.
fn preview(text: &str) -> String {
    let head: String = text.chars().take(300).collect();
    format!("{} chars: {head:?}", text.chars().count())
}

/// Every error has a message that says where: the path (or the world) for errors inside
/// the file, the line and column or the expected top-level shape for the whole file.
fn assert_located(e: &ConfigError, text: &str) {
    let path: String = e.path.chars().take(40).collect();
    let what = format!("path {path:?}, message {:?}, input {}", preview(&e.message), preview(text));
    assert!(!e.message.trim().is_empty(), "empty message: {what}");
    assert!(e.message.chars().count() <= 400, "a long message: {what}");
    let located = if e.path.is_empty() {
        (e.message.contains("line ") && e.message.contains("column ")) || e.message.contains("\"worlds\"")
    } else {
        let world = path.split('.').next().unwrap_or_default();
        e.message.contains(&path) || e.message.contains(world) || e.message.starts_with("world '")
    };
    assert!(located, "message without a location: {what}");
}

/// Loads `text` as the CLI's `check` and the Godot catalogue do; a panic is a failure that
/// names the input. A catalogue holds only valid worlds; a failure has located messages.
fn load(text: &str) -> Result<WorldCatalog, ConfigErrors> {
    let result = match catch_unwind(AssertUnwindSafe(|| WorldCatalog::from_json(text))) {
        Ok(r) => r,
        Err(_) => panic!("the loader panicked on {}", preview(text)),
    };
    match &result {
        Ok(c) => {
            for w in &c.worlds {
                assert!(w.validate().is_empty(), "accepted an invalid world from {}", preview(text));
                let back = WorldSettings::from_value(&w.to_value(), "worlds[0]").expect("round trip");
                assert_eq!(&back, w);
                assert!(estimate_solve(w).bytes > 0);
            }
        }
        Err(errors) => {
            assert!(!errors.0.is_empty(), "an error without messages for {}", preview(text));
            for e in &errors.0 {
                assert_located(e, text);
            }
        }
    }
    result
}

fn shipped() -> Value {
    serde_json::from_str(SHIPPED_WORLDS).expect("shipped worlds.json is JSON")
}

fn pick<'a, T>(rng: &mut SplitMix64, items: &'a [T]) -> &'a T {
    &items[(rng.next_u64() % items.len() as u64) as usize]
}

fn below(rng: &mut SplitMix64, n: usize) -> usize {
    (rng.next_u64() % n.max(1) as u64) as usize
}

/// A value a user (or a broken tool) might write where a setting belongs.
fn hostile_value(rng: &mut SplitMix64) -> Value {
    match below(rng, 24) {
        0 => Value::Null,
        1 => json!(rng.next_u64() & 1 == 0),
        2 => json!(0),
        3 => json!(-1),
        4 => json!(1.5),
        5 => json!(1e308),
        6 => json!(-1e308),
        7 => json!(5e-324),
        8 => json!(u64::MAX),
        9 => json!(i64::MIN),
        10 => json!(*pick(rng, &["NaN", "nan", "inf", "-inf", "Infinity", "1e400", "-0", ""])),
        11 => json!("ünïcödé 🌊 \u{0} \u{202e}"),
        12 => json!("x".repeat(10_000)),
        13 => json!([]),
        14 => json!({}),
        15 => json!([1, 2, 3]),
        16 => json!({"lat_deg": 1e308, "lon_deg": -1e308}),
        17 => json!({"lat_deg": "NaN", "lon_deg": null, "alt": 3}),
        18 => json!(*pick(rng, &["#GGGGGG", "#fff", "#1d4e7a00", "1d4e7a", "#1D4E7A"])),
        19 => {
            let mut v = json!(0);
            for _ in 0..100 {
                v = json!([v]);
            }
            v
        }
        // Any finite double: tiny, huge, negative, subnormal.
        20 => {
            let x = f64::from_bits(rng.next_u64());
            if x.is_finite() {
                json!(x)
            } else {
                json!(-0.0)
            }
        }
        21 => json!(rng.next_u64() % 40_000_000),
        22 => json!(*pick(rng, &["temperate", "volcanic", "gothic", "TEMPERATE"])),
        _ => json!(rng.range(-2000.0, 2000.0)),
    }
}

/// A key that is not one: unicode, empty, near misses, very long.
fn hostile_key(rng: &mut SplitMix64) -> String {
    let near = pick(rng, KEYS).name;
    match below(rng, 6) {
        0 => String::new(),
        1 => "rädius_m 🌊".into(),
        2 => format!("{near} "),
        3 => near.to_uppercase(),
        4 => "k".repeat(5_000),
        _ => format!("{}\u{0}", &near[..near.len() - 1]),
    }
}

/// World `w` of the document, when the document still has one there.
fn world_mut(doc: &mut Value, w: usize) -> Option<&mut serde_json::Map<String, Value>> {
    doc.get_mut("worlds")?.as_array_mut()?.get_mut(w)?.as_object_mut()
}

/// A random edit of the parsed file.
fn mutate_value(rng: &mut SplitMix64, doc: &mut Value) {
    let count = doc["worlds"].as_array().map_or(0, Vec::len);
    let w = below(rng, count);
    let key = pick(rng, KEYS).name;
    let value = hostile_value(rng);
    match below(rng, 12) {
        0..=3 => {
            world_mut(doc, w).map(|o| o.insert(key.into(), value));
        }
        4 => {
            world_mut(doc, w).map(|o| o.remove(key));
        }
        5 => {
            let new_key = hostile_key(rng);
            if let Some(o) = world_mut(doc, w) {
                let v = o.remove(key).unwrap_or(value);
                o.insert(new_key, v);
            }
        }
        6 => {
            if let Some(list) = doc.get_mut("worlds").and_then(Value::as_array_mut) {
                if let Some(copy) = list.get(w).cloned() {
                    list.push(copy);
                }
            }
        }
        7 => {
            if let Some(slot) = doc.get_mut("worlds").and_then(|l| l.get_mut(w)) {
                *slot = value;
            }
        }
        8 => doc["worlds"] = value,
        9 => doc[hostile_key(rng)] = value,
        10 => {
            let place = json!({"lat_deg": rng.range(-100.0, 100.0), "lon_deg": rng.range(-200.0, 200.0)});
            world_mut(doc, w).map(|o| o.insert("lake_at".into(), place));
        }
        _ => {
            if let Some(list) = doc.get_mut("worlds").and_then(Value::as_array_mut) {
                list.truncate(below(rng, count + 1));
            }
        }
    }
}

/// A raw token JSON may or may not accept, to splice in where a value goes.
const RAW_TOKENS: &[&str] = &[
    "1e400",
    "-1e400",
    "1e-400",
    "NaN",
    "Infinity",
    "-Infinity",
    "-0",
    "00",
    "1.",
    ".5",
    "0x10",
    "18446744073709551616",
    "-9223372036854775809",
    "\"\\ud800\"",
    "\"\\u0000\"",
    "\"\u{feff}\"",
    "true false",
    "[",
    "}",
    "{\"lat_deg\": 1, \"lat_deg\": 2}",
];

/// A random edit of the text: truncation, byte flips, splices, repeated keys, deletions.
fn mutate_text(rng: &mut SplitMix64, text: &str) -> String {
    let bytes = text.as_bytes();
    let at = below(rng, bytes.len() + 1);
    match below(rng, 7) {
        0 => String::from_utf8_lossy(&bytes[..at]).into_owned(),
        1 => {
            let mut b = bytes.to_vec();
            for _ in 0..1 + below(rng, 8) {
                let i = below(rng, b.len());
                b[i] ^= 1 << below(rng, 8);
            }
            String::from_utf8_lossy(&b).into_owned()
        }
        2 => {
            let token = pick(rng, RAW_TOKENS);
            format!(
                "{}{token}{}",
                String::from_utf8_lossy(&bytes[..at]),
                String::from_utf8_lossy(&bytes[at..])
            )
        }
        3 => {
            // Replace the value after a random `": ` with a raw token.
            let starts: Vec<usize> = text.match_indices("\": ").map(|(i, _)| i + 3).collect();
            let start = *pick(rng, &starts);
            let end = text[start..].find([',', '\n']).map_or(text.len(), |e| start + e);
            format!("{}{}{}", &text[..start], pick(rng, RAW_TOKENS), &text[end..])
        }
        4 => {
            // Write a key a second time inside a random object.
            let opens: Vec<usize> = text.match_indices('{').map(|(i, _)| i + 1).collect();
            let open = *pick(rng, &opens);
            let key = pick(rng, KEYS).name;
            format!("{} \"{key}\": 1, \"{key}\": 2, {}", &text[..open], &text[open..])
        }
        5 => {
            let end = (at + below(rng, 200)).min(bytes.len());
            format!("{}{}", String::from_utf8_lossy(&bytes[..at]), String::from_utf8_lossy(&bytes[end..]))
        }
        _ => {
            let end = (at + below(rng, 400)).min(bytes.len());
            let chunk = String::from_utf8_lossy(&bytes[at..end]).into_owned();
            format!(
                "{}{chunk}{chunk}{}",
                String::from_utf8_lossy(&bytes[..at]),
                String::from_utf8_lossy(&bytes[at..])
            )
        }
    }
}

#[test]
fn value_mutants_of_the_shipped_file_never_panic() {
    let mut rng = SplitMix64::new(FUZZ_SEED, 1);
    let (mut ok, mut failed) = (0, 0);
    for _ in 0..CASES {
        let mut doc = shipped();
        for _ in 0..1 + below(&mut rng, 3) {
            mutate_value(&mut rng, &mut doc);
        }
        let text = if rng.next_u64() & 1 == 0 { doc.to_string() } else { format!("{doc:#}") };
        match load(&text) {
            Ok(_) => ok += 1,
            Err(_) => failed += 1,
        }
    }
    assert!(failed > CASES / 2, "most mutants are invalid ({ok} accepted)");
}

#[test]
fn text_mutants_of_the_shipped_file_never_panic() {
    let mut rng = SplitMix64::new(FUZZ_SEED, 2);
    for _ in 0..CASES {
        let mut text = SHIPPED_WORLDS.to_owned();
        for _ in 0..1 + below(&mut rng, 2) {
            text = mutate_text(&mut rng, &text);
        }
        let _ = load(&text);
    }
}

#[test]
fn hostile_whole_files_are_errors() {
    let deep_arrays = "[".repeat(10_000) + &"]".repeat(10_000);
    let deep_objects = "{\"a\":".repeat(10_000) + "1" + &"}".repeat(10_000);
    let deep_worlds = format!("{{\"worlds\": {}{}}}", "[".repeat(10_000), "]".repeat(10_000));
    let deep_unclosed = "[".repeat(100_000);
    let huge_key = format!("{{\"{}\": 1}}", "k".repeat(1_000_000));
    let many_worlds = format!("{{\"worlds\": [{}3]}}", "{},".repeat(2_000));
    for text in [
        "",
        " \n\t ",
        "\u{feff}{\"worlds\": []}",
        "\u{0}",
        "null",
        "1e400",
        "{\"worlds\": [{\"radius_m\": 1e400}]}",
        "{\"worlds\": [], \"worlds\": []}",
        "{\"worlds\": [{\"name\": \"a\", \"name\": \"b\"}]}",
        deep_arrays.as_str(),
        deep_objects.as_str(),
        deep_worlds.as_str(),
        deep_unclosed.as_str(),
        huge_key.as_str(),
        many_worlds.as_str(),
    ] {
        assert!(load(text).is_err(), "accepted {}", preview(text));
    }
    assert!(load("{\"worlds\": []}").is_ok_and(|c| c.worlds.is_empty()));
}

/// Bug: a megabyte-long key, name or colour was quoted whole in its error message, and an
/// unknown key's suggestion compared all of it against every known key.
#[test]
fn long_text_in_the_file_is_quoted_short() {
    let mut doc = shipped();
    let long = "q".repeat(1_000_000);
    doc["worlds"][0][long.as_str()] = json!(1);
    doc["worlds"][0]["sea_color"] = json!(long);
    doc["worlds"][0]["seed"] = json!([long]);
    let started = std::time::Instant::now();
    let e = load(&doc.to_string()).expect_err("bad keys and values");
    assert!(started.elapsed().as_secs_f64() < 5.0, "took {:?}", started.elapsed());
    let messages: Vec<&str> = e.0.iter().map(|e| e.message.as_str()).collect();
    assert!(messages.contains(&"world 'home': unknown key 'qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq… (1000000 characters)'; did you mean 'name'?"), "{messages:?}");
    assert!(messages.iter().all(|m| m.len() < 200), "{messages:?}");
}

#[test]
fn deep_nesting_is_a_syntax_error_not_a_stack_overflow() {
    let text = format!("{{\"worlds\": [{{\"lake_at\": {}{}}}]}}", "[".repeat(10_000), "]".repeat(10_000));
    let e = load(&text).expect_err("too deep");
    assert!(e.0[0].message.contains("recursion limit exceeded"), "{}", e.0[0].message);
}

#[test]
fn huge_numbers_are_range_errors_with_the_value() {
    let mut doc = shipped();
    doc["worlds"][0]["radius_m"] = json!(1e308);
    doc["worlds"][0]["sea_level_m"] = json!(-1e308);
    doc["worlds"][0]["lattice_nodes"] = json!(u64::MAX);
    let messages: Vec<String> =
        load(&doc.to_string()).expect_err("out of range").0.into_iter().map(|e| e.message).collect();
    assert!(
        messages.contains(
            &"world 'home' (worlds[0].radius_m): radius_m must be within 500..=1000000, got 1e308".into()
        ),
        "{messages:?}"
    );
    assert!(
        messages.iter().any(|m| m.ends_with("sea_level_m must be within ±relief_m (±600), got -1e308")),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("lattice_nodes must be within 1000..=16000000, got 18446744073709551615")),
        "{messages:?}"
    );
    let e = load(&SHIPPED_WORLDS.replacen("10000.0", "1e400", 1)).expect_err("1e400");
    assert!(e.0[0].message.starts_with("not valid JSON: number out of range at line "), "{:?}", e.0);
}

/// Bug: a key written twice in one world was read silently, the last one winning, so a
/// pasted-over value never took effect and nothing said so.
#[test]
fn repeated_key_is_an_error_not_the_last_one_wins() {
    let text =
        SHIPPED_WORLDS.replacen("\"relief_m\": 600.0,", "\"relief_m\": 600.0, \"relief_m\": 900.0,", 1);
    let e = load(&text).expect_err("repeated key");
    assert_eq!(e.0.len(), 1);
    assert_eq!(e.0[0].path, "worlds[0].relief_m");
    assert!(
        e.0[0]
            .message
            .starts_with("worlds[0].relief_m: key 'relief_m' is written twice in one object at line "),
        "{}",
        e.0[0].message
    );
    let top = load("{\"worlds\": [], \"worlds\": []}").expect_err("repeated top-level key");
    assert_eq!(top.0[0].path, "worlds");
    let place =
        load(&SHIPPED_WORLDS.replacen("\"lat_deg\": 10.0,", "\"lat_deg\": 10.0, \"lat_deg\": 11.0,", 1));
    assert_eq!(place.expect_err("repeated").0[0].path, "worlds[0].lake_at.lat_deg");
}

/// A world `validate` accepts, with every value at or near a corner of its range and a
/// small lattice (so the solve stays cheap).
fn corner_world(rng: &mut SplitMix64) -> WorldSettings {
    let mut w = watershed::testkit::world(watershed::testkit::QUICK_WORLD);
    let corner = |rng: &mut SplitMix64, lo: f64, hi: f64| match below(rng, 4) {
        0 => lo,
        1 => hi,
        _ => rng.range(lo, hi),
    };
    w.seed = rng.next_u64();
    w.radius_m = *pick(rng, &[500.0, 2000.0, 10_000.0, 1.0e6]);
    w.relief_m = corner(rng, 10.0, (w.radius_m / 10.0).max(10.0));
    w.sea_level_m = corner(rng, -w.relief_m, w.relief_m);
    w.crater_depth_m = corner(rng, 0.0, w.relief_m);
    let area = 4.0 * std::f64::consts::PI * w.radius_m * w.radius_m;
    w.river_catchment_m2 = corner(rng, area * 1e-6, area);
    w.lattice_nodes = 1000 + below(rng, 2000);
    w.channel_depth_m = corner(rng, 0.5, 100.0);
    w.river_fill = corner(rng, 0.1, 0.95);
    w.lake_min_depth_m = corner(rng, 0.0, 100.0);
    w.lake_at = (below(rng, 3) != 0).then(|| watershed::LatLon {
        lat_deg: corner(rng, -90.0, 90.0),
        lon_deg: corner(rng, -180.0, 180.0),
    });
    for flag in [&mut w.sea, &mut w.rivers, &mut w.lakes, &mut w.craters, &mut w.mesas, &mut w.erosion] {
        *flag = rng.next_u64() & 1 == 0;
    }
    w.erosion_steps = corner(rng, 1.0, 500.0).round() as usize;
    w.erosion_k = corner(rng, 1.0e-8, 1.0e-3);
    w.erosion_m = corner(rng, 0.3, 0.7);
    w.erosion_diffusion_m2_yr = corner(rng, 0.0, 10.0);
    w.erosion_range_m = corner(rng, 10.0, (w.radius_m / 4.0).max(10.0));
    w.erosion_coastal = corner(rng, 0.0, 1.0);
    w.climate = corner(rng, -1.0, 1.0);
    w.look.snow_line = corner(rng, 0.0, 1.0);
    w.look.cliff_slope_deg = corner(rng, 5.0, 85.0);
    w
}

/// Every value the loader lets through must also solve: worlds at the corners of every
/// range (poles, a sea at ±relief, the smallest catchment) build without a panic.
#[test]
fn worlds_at_the_corners_of_every_range_build() {
    let mut rng = SplitMix64::new(FUZZ_SEED, 3);
    let mut built = 0;
    while built < 150 {
        let w = corner_world(&mut rng);
        assert!(w.validate().is_empty(), "{:?}", w.validate());
        // Worlds whose river beds alone run to millions of pieces are the estimate's to refuse.
        if estimate_solve(&w).bed_pieces > 400_000 {
            continue;
        }
        let world = match catch_unwind(AssertUnwindSafe(|| watershed::World::build(&w))) {
            Ok(world) => world,
            Err(_) => panic!("World::build panicked on {w:?}"),
        };
        let s = &world.terrain.drainage.stats;
        assert_eq!((s.uphill, s.no_path), (0, 0), "{w:?}");
        built += 1;
    }
}
