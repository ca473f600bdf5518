@tool
extends EditorPlugin
## Editor glue for Watershed: the Watershed panel at the bottom of the editor (the edited
## planet's progress, map, figures and exports; a click on the map frames that spot), the
## rivers and lakes drawn over the planet in the viewport, a handle to drag the lake basin,
## a Project > Tools entry that re-solves every DrainageSolver in the edited scene, and
## "Rivers for this terrain" in the 3D toolbar while an HTerrain or a Terrain3D is selected
## (also Project > Tools). The node classes and their icons come from watershed.gdextension.

const MENU_REGENERATE := "Watershed: Regenerate"
const MENU_RIVERS := "Watershed: Rivers for this terrain"
const PanelScript := preload("res://addons/watershed/editor/panel.gd")
const LakeGizmo := preload("res://addons/watershed/editor/lake_gizmo.gd")
const TerrainButton := preload("res://addons/watershed/editor/terrain_button.gd")

## The Watershed panel (null while the plugin is off).
var panel: VBoxContainer
var _lake_gizmo: EditorNode3DGizmoPlugin
## "Rivers for this terrain" in the 3D toolbar (null while the plugin is off).
var _terrain_button: TerrainButton


func _enter_tree() -> void:
	add_tool_menu_item(MENU_REGENERATE, _regenerate)
	_terrain_button = TerrainButton.new(get_undo_redo())
	add_control_to_container(CONTAINER_SPATIAL_EDITOR_MENU, _terrain_button)
	add_tool_menu_item(MENU_RIVERS, _rivers_for_selection)
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
	remove_tool_menu_item(MENU_RIVERS)
	remove_control_from_container(CONTAINER_SPATIAL_EDITOR_MENU, _terrain_button)
	_terrain_button.queue_free()
	_terrain_button = null


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


func _rivers_for_selection() -> void:
	if _terrain_button.terrain == null:
		push_warning("Watershed: select an HTerrain or a Terrain3D node first")
		return
	_terrain_button.run(_terrain_button.terrain)


func _on_scene_changed(_root: Node) -> void:
	_follow_selection()


## Shows in the panel the planet of the selected node (a DrainageSolver, or a node of the
## same planet: its PlanetHeight, or a node that reads its solver), else the first planet of
## the edited scene; shows "Rivers for this terrain" while one terrain is selected.
func _follow_selection() -> void:
	if panel == null:
		return
	var selected := EditorInterface.get_selection().get_selected_nodes()
	_terrain_button.follow(selected[0] if selected.size() == 1 else null)
	var root := EditorInterface.get_edited_scene_root()
	var solvers := find_solvers(root) if root != null else []
	var chosen: DrainageSolver = solvers[0] if not solvers.is_empty() else null
	for node in selected:
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
