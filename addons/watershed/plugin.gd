@tool
extends EditorPlugin
## Editor glue for Watershed: the Watershed panel at the bottom of the editor (the edited
## planet's progress, map, figures and exports; a click on the map frames that spot), the
## rivers and lakes drawn over the planet in the viewport, a handle to drag the lake basin,
## and a Project > Tools entry that re-solves every DrainageSolver in the edited scene. The
## node classes and their icons come from watershed.gdextension.

const MENU_REGENERATE := "Watershed: Regenerate"
const PanelScript := preload("res://addons/watershed/editor/panel.gd")
const LakeGizmo := preload("res://addons/watershed/editor/lake_gizmo.gd")

## The Watershed panel (null while the plugin is off).
var panel: VBoxContainer
var _lake_gizmo: EditorNode3DGizmoPlugin


func _enter_tree() -> void:
	add_tool_menu_item(MENU_REGENERATE, _regenerate)
	panel = PanelScript.new()
	add_control_to_bottom_panel(panel, "Watershed")
	_lake_gizmo = LakeGizmo.new(get_undo_redo())
	add_node_3d_gizmo_plugin(_lake_gizmo)
	scene_changed.connect(_on_scene_changed)
	EditorInterface.get_selection().selection_changed.connect(_follow_selection)
	_follow_selection.call_deferred()


func _exit_tree() -> void:
	EditorInterface.get_selection().selection_changed.disconnect(_follow_selection)
	scene_changed.disconnect(_on_scene_changed)
	remove_node_3d_gizmo_plugin(_lake_gizmo)
	remove_control_from_bottom_panel(panel)
	panel.queue_free()
	panel = null
	remove_tool_menu_item(MENU_REGENERATE)


func _regenerate() -> void:
	var root := EditorInterface.get_edited_scene_root()
	if root == null:
		push_warning("Watershed: no scene is open")
		return
	var solved := 0
	for node in find_solvers(root):
		if node.solve():
			solved += 1
	print("Watershed: solving %d planet(s)" % solved)


func _on_scene_changed(_root: Node) -> void:
	_follow_selection()


## Shows in the panel the planet of the selected node (a DrainageSolver, or a node of the
## same planet: its PlanetHeight, or a node that reads its solver), else the first planet of
## the edited scene.
func _follow_selection() -> void:
	if panel == null:
		return
	var root := EditorInterface.get_edited_scene_root()
	var solvers := find_solvers(root) if root != null else []
	var chosen: DrainageSolver = solvers[0] if not solvers.is_empty() else null
	for node in EditorInterface.get_selection().get_selected_nodes():
		var own := _solver_of(node, solvers)
		if own != null:
			chosen = own
			break
	panel.show_planet(chosen)


## The solver among `solvers` that `node` belongs to (null: none).
func _solver_of(node: Node, solvers: Array) -> DrainageSolver:
	for solver: DrainageSolver in solvers:
		if node == solver or node == solver.planet:
			return solver
		if "solver" in node and node.get("solver") == solver:
			return solver
		if node.is_ancestor_of(solver):
			return solver
	return null


## Every DrainageSolver under `node`, itself included, in tree order.
static func find_solvers(node: Node) -> Array:
	var found: Array = []
	if node is DrainageSolver:
		found.append(node)
	found.append_array(node.find_children("*", "DrainageSolver", true, false))
	return found
