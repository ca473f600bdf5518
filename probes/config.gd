extends SceneTree
## config: worlds.json loads; a copy with a misspelt key is rejected with the suggestion.

const Lib := preload("res://probes/probe_lib.gd")


func _initialize() -> void:
	_run.call_deferred()


func _run() -> void:
	var lib := Lib.new()
	var catalog := WorldCatalog.new()
	var loaded := catalog.load("res://worlds.json")
	lib.check("config/load", loaded and catalog.names().size() == 9, catalog.names().size(), 9)
	var text := FileAccess.get_file_as_string("res://worlds.json")
	var copy := FileAccess.open("user://misspelt_worlds.json", FileAccess.WRITE)
	copy.store_string(text.replace("\"sea_level_m\"", "\"sea_levle_m\""))
	copy.close()
	var misspelt := WorldCatalog.new()
	lib.begin_expected("config/misspelt_key")
	var accepted := misspelt.load("user://misspelt_worlds.json")
	lib.end_expected("config/misspelt_key", misspelt.errors().size())
	var first := "" if misspelt.errors().is_empty() else misspelt.errors()[0]
	var named := first.contains("unknown key 'sea_levle_m'; did you mean 'sea_level_m'?")
	var ok := not accepted and named
	lib.check("config/misspelt_key", ok, "\"%s\"" % first, "the key and the suggestion")
	_check_settings_resource(lib, catalog)
	lib.finish(self)


## The inspector's WorldSettings: a new one is `home`, every world survives a `.tres` round
## trip byte for byte, and one edited property changes the world object.
func _check_settings_resource(lib: Lib, catalog: WorldCatalog) -> void:
	var fresh := WorldSettings.new()
	var home := catalog.get_world("home")
	lib.check(
		"config/new_settings_are_home",
		fresh.settings_digest() == home.settings_digest(),
		fresh.settings_digest().left(12),
		home.settings_digest().left(12)
	)
	var survived := 0
	for world_name in catalog.names():
		var settings := catalog.get_world(world_name)
		var path := "user://%s.tres" % world_name
		ResourceSaver.save(settings, path)
		var back: WorldSettings = ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE)
		if back != null and back.to_json() == settings.to_json():
			survived += 1
	var count := catalog.names().size()
	lib.check("config/tres_round_trip", survived == count, survived, count)
	var edited := catalog.get_world("home")
	edited.set("lake_guaranteed", false)
	edited.relief_m = 700.0
	var json: Dictionary = JSON.parse_string(edited.to_json())
	var ok: bool = json["lake_at"] == null and is_equal_approx(json["relief_m"], 700.0)
	lib.check("config/edit_reaches_json", ok, json.get("relief_m"), "700 and no lake")
