extends Node3D
## Example wiring: once the DrainageSolver has solved the planet, the VoxelLodTerrain gets a
## generator that fills its blocks from the carved ground (needs godot_voxel) and a material
## that colours the ground by the biome rules (PlanetLife.ground_map through
## planet_ground.gdshader).

const GENERATOR := preload("res://addons/watershed/voxel/watershed_voxel_generator.gd")
const GROUND_SHADER := preload("res://addons/watershed/voxel/planet_ground.gdshader")

## Width of the ground map the material samples, pixels (height: half). 1024 is about 37 m
## a pixel at the equator of a 6 km planet and takes a few hundred milliseconds to draw.
@export_range(16, 8192) var ground_map_width := 1024

@onready var _solver: DrainageSolver = $DrainageSolver
@onready var _life: PlanetLife = $PlanetLife
@onready var _terrain: Node = $VoxelLodTerrain


func _ready() -> void:
	_solver.solved.connect(_on_solved)


func _on_solved(_stats: Dictionary) -> void:
	var generator := GENERATOR.new()
	generator.world_handle = _solver.world_handle()
	_terrain.generator = generator
	var material := ShaderMaterial.new()
	material.shader = GROUND_SHADER
	var ground := _life.ground_map(ground_map_width)
	if ground != null:
		material.set_shader_parameter("ground_map", ImageTexture.create_from_image(ground))
	_terrain.material = material
