extends Node3D
## Example wiring: once the DrainageSolver has solved the planet, the VoxelLodTerrain gets a
## generator that fills its blocks from the carved ground (needs godot_voxel).

const GENERATOR := preload("res://addons/watershed/voxel/watershed_voxel_generator.gd")

@onready var _solver: Node = $DrainageSolver
@onready var _terrain: Node = $VoxelLodTerrain


func _ready() -> void:
	_solver.solved.connect(_on_solved)


func _on_solved(_stats: Dictionary) -> void:
	var generator := GENERATOR.new()
	generator.world_handle = _solver.world_handle()
	_terrain.generator = generator
