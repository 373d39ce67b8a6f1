//! Every component the plugins give a game is reflected and registered, so an inspector (or a
//! scene file) sees it: the plugin group registers each type with its `ReflectComponent`.

use bevy::ecs::reflect::{AppTypeRegistry, ReflectComponent};
use bevy::prelude::*;
use murmur_flock::prelude::*;
use std::any::TypeId;

fn registered(app: &App) -> impl Fn(TypeId) -> bool + '_ {
    let registry = app.world().resource::<AppTypeRegistry>().read();
    let ids: Vec<TypeId> = registry
        .iter()
        .filter(|r| r.data::<ReflectComponent>().is_some())
        .map(|r| r.type_id())
        .collect();
    move |id| ids.contains(&id)
}

#[test]
fn every_component_of_the_plugin_group_is_reflected_and_registered() {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, FlockPlugins::default()));
    let has = registered(&app);
    let components = [
        (TypeId::of::<Boid>(), "Boid"),
        (TypeId::of::<Position>(), "Position"),
        (TypeId::of::<Velocity>(), "Velocity"),
        (TypeId::of::<Position<Vec3>>(), "Position<Vec3>"),
        (TypeId::of::<Velocity<Vec3>>(), "Velocity<Vec3>"),
        (TypeId::of::<NeighbourCount>(), "NeighbourCount"),
        (TypeId::of::<FlockMember>(), "FlockMember"),
        (TypeId::of::<Flock>(), "Flock"),
        (TypeId::of::<Leader>(), "Leader"),
        (TypeId::of::<Predator>(), "Predator"),
        (TypeId::of::<Hunter>(), "Hunter"),
        (TypeId::of::<FlockPlayer>(), "FlockPlayer"),
        (TypeId::of::<FlockLook>(), "FlockLook"),
        (TypeId::of::<Highlight>(), "Highlight"),
        (TypeId::of::<Bank>(), "Bank"),
        (TypeId::of::<BirdMesh>(), "BirdMesh"),
        (TypeId::of::<ClickLeader>(), "ClickLeader"),
        (TypeId::of::<LeaderCamera>(), "LeaderCamera"),
    ];
    let missing: Vec<&str> = components
        .iter()
        .filter(|(id, _)| !has(*id))
        .map(|(_, name)| *name)
        .collect();
    assert!(
        missing.is_empty(),
        "not reflected as components: {missing:?}"
    );
}

#[test]
fn a_type_nobody_registered_is_not_found() {
    // Negative control: the lookup above does not find everything.
    #[derive(Component)]
    struct NotRegistered;
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, FlockPlugins::default()));
    assert!(!registered(&app)(TypeId::of::<NotRegistered>()));
}
