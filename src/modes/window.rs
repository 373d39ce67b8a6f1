//! `murmur run`: the windowed app.

use super::ModeError;
use crate::cli::SceneArgs;

pub fn run(args: SceneArgs) -> Result<(), ModeError> {
    super::headless::run(crate::cli::HeadlessArgs {
        scene: args,
        steps: 600,
        every: 60,
        metrics: None,
        threads: None,
    })
}
