//! A firmware image: its settings block (found by its magic, the layout of
//! `plugins/murmur_microbit/src/config.rs`), its loadable segments (ELF32 program headers) and
//! what it takes of the board's flash and RAM.

use murmur_microboids::Revision;

/// The settings block's magic, the bytes before its fields.
const MAGIC: &[u8; 14] = b"MURMUR-CONFIG1";
/// No fault (`fault_tick`).
const NEVER: u32 = u32::MAX;

/// What an image runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The model revision.
    pub revision: Revision,
    /// As fast as the serial line takes the frames, instead of one tick per 31.872 ms.
    pub fast: bool,
    /// From this tick on, bird `.1`'s x is reported one unit off (a negative control).
    pub fault: Option<(u32, u32)>,
}

/// An ELF image of the firmware, in memory.
pub struct Image {
    bytes: Vec<u8>,
}

/// A part of the image the board loads: its bytes and where they go in flash.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    /// The flash address of its first byte.
    pub address: u32,
    /// Its bytes, as the file holds them.
    pub data: Vec<u8>,
    /// Its size in memory (more than `data` for zeroed RAM).
    pub mem_size: u32,
    /// Where it runs from (its RAM address for `.data`).
    pub run_address: u32,
}

/// The board's memory map: flash from 0, RAM from 0x2000_0000.
const RAM: u32 = 0x2000_0000;

impl Image {
    /// Reads an ELF image; refuses a file that is not a 32-bit little-endian ARM ELF.
    pub fn read(bytes: Vec<u8>) -> Result<Self, String> {
        if bytes.len() < 52 || &bytes[..4] != b"\x7fELF" {
            return Err("not an ELF file".into());
        }
        if bytes[4] != 1 || bytes[5] != 1 {
            return Err("not a 32-bit little-endian ELF".into());
        }
        let image = Self { bytes };
        if image.u16(18) != 40 {
            return Err("not an ARM image".into());
        }
        Ok(image)
    }

    fn u16(&self, at: usize) -> u16 {
        u16::from_le_bytes([self.bytes[at], self.bytes[at + 1]])
    }

    fn u32(&self, at: usize) -> u32 {
        u32::from_le_bytes(self.bytes[at..at + 4].try_into().expect("four bytes"))
    }

    /// The file's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Where the settings block's fields start; exactly one block must be in the image.
    fn settings_at(&self) -> Result<usize, String> {
        let mut found = self
            .bytes
            .windows(MAGIC.len())
            .enumerate()
            .filter(|(_, w)| w == MAGIC)
            .map(|(i, _)| i + MAGIC.len());
        match (found.next(), found.next()) {
            (Some(at), None) if at + 10 <= self.bytes.len() => Ok(at),
            (None, _) => {
                Err("this image carries no settings block (not murmur's firmware?)".into())
            }
            _ => Err("this image carries more than one settings block".into()),
        }
    }

    /// What the image runs.
    pub fn settings(&self) -> Result<Settings, String> {
        let at = self.settings_at()?;
        let revision = Revision::from_protocol_number(self.bytes[at])
            .ok_or_else(|| format!("unknown revision number {}", self.bytes[at]))?;
        // revision, fast, then the two u32 fields (at offset 16 of the block: no padding).
        let tick = self.u32(at + 2);
        let bird = self.u32(at + 6);
        Ok(Settings {
            revision,
            fast: self.bytes[at + 1] != 0,
            fault: (tick != NEVER).then_some((tick, bird)),
        })
    }

    /// Makes the image run `settings`.
    pub fn set(&mut self, settings: Settings) -> Result<(), String> {
        let at = self.settings_at()?;
        let (tick, bird) = settings.fault.unwrap_or((NEVER, 0));
        self.bytes[at] = settings.revision.protocol_number();
        self.bytes[at + 1] = settings.fast as u8;
        self.bytes[at + 2..at + 6].copy_from_slice(&tick.to_le_bytes());
        self.bytes[at + 6..at + 10].copy_from_slice(&bird.to_le_bytes());
        Ok(())
    }

    /// The loadable segments (PT_LOAD with bytes in the file), at their flash addresses.
    pub fn segments(&self) -> Result<Vec<Segment>, String> {
        let (phoff, phentsize, phnum) = (
            self.u32(28) as usize,
            self.u16(42) as usize,
            self.u16(44) as usize,
        );
        let mut out = Vec::new();
        for i in 0..phnum {
            let h = phoff + i * phentsize;
            if h + 32 > self.bytes.len() {
                return Err("a program header lies past the end of the file".into());
            }
            if self.u32(h) != 1 {
                continue; // not PT_LOAD
            }
            let (offset, vaddr, paddr, filesz, memsz) = (
                self.u32(h + 4) as usize,
                self.u32(h + 8),
                self.u32(h + 12),
                self.u32(h + 16) as usize,
                self.u32(h + 20),
            );
            let data = self
                .bytes
                .get(offset..offset + filesz)
                .ok_or("a segment lies past the end of the file")?
                .to_vec();
            out.push(Segment {
                address: paddr,
                data,
                mem_size: memsz,
                run_address: vaddr,
            });
        }
        Ok(out)
    }

    /// The address of the symbol `name` (from the ELF's symbol table), with the Thumb bit of a
    /// function's address cleared.
    pub fn symbol(&self, name: &str) -> Result<u32, String> {
        let (shoff, shentsize, shnum) = (
            self.u32(32) as usize,
            self.u16(46) as usize,
            self.u16(48) as usize,
        );
        let section = |i: usize| -> Option<(u32, usize, usize, u32)> {
            let h = shoff + i * shentsize;
            (h + 40 <= self.bytes.len()).then(|| {
                (
                    self.u32(h + 4),           // type
                    self.u32(h + 16) as usize, // offset
                    self.u32(h + 20) as usize, // size
                    self.u32(h + 24),          // link
                )
            })
        };
        for i in 0..shnum {
            let Some((2, offset, size, link)) = section(i) else {
                continue; // not SHT_SYMTAB
            };
            let (_, strings, strings_size, _) =
                section(link as usize).ok_or("a symbol table without its strings")?;
            for entry in (offset..offset + size).step_by(16) {
                if entry + 16 > self.bytes.len() {
                    break;
                }
                let at = strings + self.u32(entry) as usize;
                let end = self.bytes[at..(strings + strings_size).min(self.bytes.len())]
                    .iter()
                    .position(|&b| b == 0)
                    .map(|n| at + n);
                if end.is_some_and(|end| &self.bytes[at..end] == name.as_bytes()) {
                    let value = self.u32(entry + 4);
                    let is_function = self.bytes[entry + 12] & 0xF == 2;
                    return Ok(if is_function { value & !1 } else { value });
                }
            }
        }
        Err(format!(
            "the image has no symbol `{name}` (a stripped image?)"
        ))
    }

    /// Bytes of flash (everything the board loads) and of RAM (`.data` and `.bss`; the stack
    /// takes what is left) the image takes.
    pub fn footprint(&self) -> Result<(u32, u32), String> {
        let segments = self.segments()?;
        let flash = segments
            .iter()
            .filter(|s| s.address < RAM)
            .map(|s| s.data.len() as u32)
            .sum();
        let ram = segments
            .iter()
            .filter(|s| s.run_address >= RAM)
            .map(|s| s.mem_size)
            .sum();
        Ok((flash, ram))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The smallest file `Image::read` takes: an ARM ELF32 header, then a settings block.
    fn image_with(blocks: usize) -> Vec<u8> {
        let mut bytes = vec![0u8; 52];
        bytes[..6].copy_from_slice(b"\x7fELF\x01\x01");
        bytes[18] = 40;
        for _ in 0..blocks {
            bytes.extend_from_slice(MAGIC);
            bytes.extend_from_slice(&[0, 0]);
            bytes.extend_from_slice(&NEVER.to_le_bytes());
            bytes.extend_from_slice(&0u32.to_le_bytes());
        }
        bytes
    }

    #[test]
    fn settings_written_are_the_settings_read() {
        let mut image = Image::read(image_with(1)).unwrap();
        assert_eq!(
            image.settings().unwrap(),
            Settings {
                revision: Revision::A412,
                fast: false,
                fault: None
            }
        );
        let wanted = Settings {
            revision: Revision::Article,
            fast: true,
            fault: Some((777, 5)),
        };
        image.set(wanted).unwrap();
        assert_eq!(image.settings().unwrap(), wanted);
        // The fields sit where the firmware's #[repr(C)] struct has them.
        let at = MAGIC.len() + 52;
        assert_eq!(&image.bytes()[at..at + 2], &[1, 1]);
        assert_eq!(&image.bytes()[at + 2..at + 6], &777u32.to_le_bytes());
    }

    #[test]
    fn files_that_are_not_murmurs_firmware_are_refused() {
        assert!(Image::read(b"#!/bin/sh\n".to_vec()).is_err());
        let mut x86 = image_with(1);
        x86[18] = 62;
        assert!(Image::read(x86).is_err());
        assert!(Image::read(image_with(0)).unwrap().settings().is_err());
        assert!(Image::read(image_with(2)).unwrap().settings().is_err());
    }
}
