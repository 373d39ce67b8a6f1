//! Where each bird of a flock is: its slot in the flock's columns and its entity, by bird id.
//! Ids below a bound proportional to the flock's size live in plain arrays (the usual case:
//! `spawn_flock` numbers birds from 0); any other id (the player's `u32::MAX`) in a map.

use bevy_ecs::entity::Entity;
use std::collections::HashMap;

/// No slot (the id is unused).
const NONE: u32 = u32::MAX;

/// Writes slots into a [`BirdIndex`]'s arrays from many threads, one id per write. Made by
/// [`BirdIndex::dense_slots`] for a pass in which every id is written once (ids are unique within
/// a flock: the index refuses a second bird with an id), and used only while that pass holds the
/// index borrowed.
#[derive(Clone, Copy)]
pub(crate) struct DenseSlots(*mut u32, usize);

// SAFETY: writes go to distinct indices (one per id), see `set`.
unsafe impl Send for DenseSlots {}
// SAFETY: as above.
unsafe impl Sync for DenseSlots {}

impl DenseSlots {
    /// Records `slot` for `id`, if the id is kept in the arrays.
    #[inline]
    pub(crate) fn set(self, id: u32, slot: usize) {
        let i = id as usize;
        if i < self.1 {
            // SAFETY: `i` is within the array, which outlives the pass (the index is borrowed
            // for it); each id is written by one slot only, so no two threads write index `i`.
            unsafe { self.0.add(i).write(slot as u32) };
        }
    }
}

/// A flock's birds by id.
#[derive(Debug, Default, Clone)]
pub(crate) struct BirdIndex {
    /// Slot by id, for ids below `slots.len()`; `NONE` where the id is unused.
    slots: Vec<u32>,
    /// Entity by id, alongside `slots`.
    entities: Vec<Entity>,
    /// Slot and entity of ids beyond the arrays.
    sparse: HashMap<u32, (u32, Entity)>,
    /// Birds indexed.
    count: usize,
}

impl BirdIndex {
    /// Ids below this go into the arrays, which grow to hold them.
    fn dense_bound(&self) -> usize {
        4 * self.count + 4096
    }

    /// The entity of the bird with `id`.
    pub(crate) fn entity(&self, id: u32) -> Option<Entity> {
        match self.entities.get(id as usize) {
            Some(&e) if self.slots[id as usize] != NONE => Some(e),
            Some(_) => None,
            None => self.sparse.get(&id).map(|&(_, e)| e),
        }
    }

    /// The slot of the bird with `id`.
    #[inline]
    pub(crate) fn slot(&self, id: u32) -> Option<usize> {
        match self.slots.get(id as usize) {
            Some(&NONE) => None,
            Some(&s) => Some(s as usize),
            None => self.sparse.get(&id).map(|&(s, _)| s as usize),
        }
    }

    /// Records a bird; `Err` with the entity already holding `id`.
    pub(crate) fn insert(&mut self, id: u32, entity: Entity, slot: usize) -> Result<(), Entity> {
        if let Some(existing) = self.entity(id) {
            return Err(existing);
        }
        let i = id as usize;
        if i < self.slots.len() || i < self.dense_bound() {
            if i >= self.slots.len() {
                self.slots.resize(i + 1, NONE);
                self.entities.resize(i + 1, Entity::PLACEHOLDER);
                // Ids kept in the map that the arrays now cover move into them.
                let len = self.slots.len();
                let moving: Vec<u32> = self
                    .sparse
                    .keys()
                    .copied()
                    .filter(|&s| (s as usize) < len)
                    .collect();
                for id in moving {
                    let (slot, entity) = self.sparse.remove(&id).expect("just listed");
                    (self.slots[id as usize], self.entities[id as usize]) = (slot, entity);
                }
            }
            (self.slots[i], self.entities[i]) = (slot as u32, entity);
        } else {
            self.sparse.insert(id, (slot as u32, entity));
        }
        self.count += 1;
        Ok(())
    }

    /// Forgets the bird with `id`.
    pub(crate) fn remove(&mut self, id: u32) {
        let i = id as usize;
        let removed = match self.slots.get_mut(i) {
            Some(s) if *s != NONE => {
                *s = NONE;
                self.entities[i] = Entity::PLACEHOLDER;
                true
            }
            Some(_) => false,
            None => self.sparse.remove(&id).is_some(),
        };
        self.count -= removed as usize;
    }

    /// Moves the bird with `id` to `slot` (it must be indexed).
    pub(crate) fn set_slot(&mut self, id: u32, slot: usize) {
        match self.slots.get_mut(id as usize) {
            Some(s) => *s = slot as u32,
            None => {
                if let Some(entry) = self.sparse.get_mut(&id) {
                    entry.0 = slot as u32;
                }
            }
        }
    }

    /// A writer of slots for the ids kept in the arrays, for a pass that moves every bird (the
    /// sort); the ids kept in the map follow with [`BirdIndex::set_sparse_slots`].
    pub(crate) fn dense_slots(&mut self) -> DenseSlots {
        DenseSlots(self.slots.as_mut_ptr(), self.slots.len())
    }

    /// Every bird's slot, for the ids kept in the map (`ids[slot]` the id in each slot).
    pub(crate) fn set_sparse_slots(&mut self, ids: &[u32]) {
        if self.sparse.is_empty() {
            return;
        }
        for (k, &id) in ids.iter().enumerate() {
            if id as usize >= self.slots.len()
                && let Some(entry) = self.sparse.get_mut(&id)
            {
                entry.0 = k as u32;
            }
        }
    }

    /// The slot of the bird with `id`, if the id is kept in the arrays (and in use): the
    /// write-back's fast path, which falls back on [`BirdIndex::slot`] for any other.
    #[inline]
    pub(crate) fn dense_slot(&self, id: u32) -> Option<usize> {
        match self.slots.get(id as usize) {
            Some(&s) if s != NONE => Some(s as usize),
            _ => None,
        }
    }

    /// A free id, above every id in use by the arrays.
    pub(crate) fn fresh_id(&self) -> u32 {
        let mut id = self.slots.len() as u32;
        while self.sparse.contains_key(&id) {
            id += 1;
        }
        id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_and_sparse_ids_are_found_and_moved() {
        let mut index = BirdIndex::default();
        let (a, b) = (
            Entity::from_raw_u32(1).unwrap(),
            Entity::from_raw_u32(2).unwrap(),
        );
        index.insert(3, a, 0).unwrap();
        index.insert(u32::MAX, b, 1).unwrap();
        assert_eq!(index.insert(3, b, 2), Err(a), "an id is held once");
        assert_eq!((index.slot(3), index.entity(3)), (Some(0), Some(a)));
        assert_eq!(
            (index.slot(u32::MAX), index.entity(u32::MAX)),
            (Some(1), Some(b))
        );
        let ids = [u32::MAX, 3];
        let slots = index.dense_slots();
        for (k, &id) in ids.iter().enumerate() {
            slots.set(id, k);
        }
        index.set_sparse_slots(&ids);
        assert_eq!((index.slot(3), index.slot(u32::MAX)), (Some(1), Some(0)));
        index.remove(3);
        assert_eq!((index.slot(3), index.entity(3)), (None, None));
        assert_eq!(index.slot(7), None);
        assert!(index.fresh_id() >= 4);
    }
}
