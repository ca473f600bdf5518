@tool
extends EditorPlugin
## Editor glue for Watershed: a Project > Tools entry that re-solves every DrainageSolver
## in the edited scene. The node classes and their icons come from watershed.gdextension.

const MENU_REGENERATE := "Watershed: Regenerate"


func _enter_tree() -> void:
	add_tool_menu_item(MENU_REGENERATE, _regenerate)


func _exit_tree() -> void:
	remove_tool_menu_item(MENU_REGENERATE)


func _regenerate() -> void:
	var root := get_editor_interface().get_edited_scene_root()
	if root == null:
		push_warning("Watershed: no scene is open")
		return
	var solved := 0
	for node in _find_solvers(root):
		if node.solve():
			solved += 1
	print("Watershed: solving %d planet(s)" % solved)


func _find_solvers(node: Node) -> Array[Node]:
	var found: Array[Node] = []
	if node.is_class("DrainageSolver"):
		found.append(node)
	for child in node.get_children():
		found.append_array(_find_solvers(child))
	return found
