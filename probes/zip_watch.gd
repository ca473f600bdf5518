extends Node
## zip_watch: an autoload for a copy of the demo that installed the add-on from the release
## zip (scripts/check-addon-zip.sh adds it to the copy's project.godot). The main scene plays
## as a player meets it; this prints which Watershed library the engine mapped (read from
## /proc, Linux only), then the demo's status line once the planet has solved, and quits
## FRAMES_AFTER frames later. No status line within TIMEOUT_MS: it says so and quits with 1.

const FRAMES_AFTER := 300
const TIMEOUT_MS := 120000

var _solved := false
var _frames_after := 0


func _ready() -> void:
	for path in _mapped_libraries():
		print("ZIP library %s" % path)


func _process(_delta: float) -> void:
	if _solved:
		_frames_after += 1
		if _frames_after >= FRAMES_AFTER:
			print("ZIP played %d frames after the solve" % _frames_after)
			get_tree().quit()
		return
	var scene := get_tree().current_scene
	var status: Label = null
	if scene != null:
		status = scene.get_node_or_null("UI/Panel/Rows/Status") as Label
	if status != null and status.text.contains(" river nodes, "):
		_solved = true
		print("ZIP solved after %d ms: %s" % [Time.get_ticks_msec(), status.text])
	elif Time.get_ticks_msec() > TIMEOUT_MS:
		print("ZIP not solved after %d ms" % TIMEOUT_MS)
		get_tree().quit(1)


## The files of this process's memory map whose name holds watershed_godot.
func _mapped_libraries() -> Array[String]:
	var found: Array[String] = []
	var output: Array = []
	OS.execute("cat", ["/proc/%d/maps" % OS.get_process_id()], output)
	for line in "\n".join(output).split("\n"):
		var path := line.get_slice(" ", line.get_slice_count(" ") - 1)
		if path.contains("watershed_godot") and not found.has(path):
			found.append(path)
	return found
