extends RefCounted
## The probes' check lines, with nothing of Watershed in them (the clients probe runs in a
## project without the add-on): one line per check (`PASS name value` / `FAIL name value
## expected` / `SKIP name why`) or figure (`INFO name value`), the counts, and frame waits.

var failures := 0
var passes := 0


## Prints one check's line and counts it.
func check(name: String, ok: bool, value: Variant, expected: Variant) -> void:
	if ok:
		passes += 1
		print("PASS %s %s" % [name, str(value)])
	else:
		failures += 1
		print("FAIL %s %s expected %s" % [name, str(value), str(expected)])


## Prints a measured figure that is not (yet) a check: `INFO name value`.
func info(name: String, value: Variant) -> void:
	print("INFO %s %s" % [name, str(value)])


## Marks the start of calls that print error lines on purpose (run.sh counts the engine's
## error lines from here to end_expected(), instead of failing on them).
func begin_expected(name: String) -> void:
	print("EXPECT-BEGIN %s" % name)


## Marks the end of begin_expected()'s calls: they must have printed exactly `count` error
## lines in the engine's output.
func end_expected(name: String, count: int) -> void:
	print("EXPECT-END %s %d" % [name, count])


## Prints a check that could not run here, and why.
func skip(name: String, why: String) -> void:
	print("SKIP %s %s" % [name, why])


## Awaits `tree`'s frames until `done` returns true or `timeout_ms` have passed since
## `started_ms` (a Time.get_ticks_msec() reading; now when negative), and returns whether
## `done` held. `done` is checked before each frame: no frame passes when it holds already.
func wait_until(tree: SceneTree, done: Callable, timeout_ms: int, started_ms := -1) -> bool:
	var started := Time.get_ticks_msec() if started_ms < 0 else started_ms
	while not done.call():
		if Time.get_ticks_msec() - started >= timeout_ms:
			return false
		await tree.process_frame
	return true


## Awaits `frames` of `tree`'s frames: process frames, or physics frames when `physics`.
func wait_frames(tree: SceneTree, frames: int, physics := false) -> void:
	for frame in frames:
		if physics:
			await tree.physics_frame
		else:
			await tree.process_frame
