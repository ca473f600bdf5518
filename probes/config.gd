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
	lib.finish(self)
