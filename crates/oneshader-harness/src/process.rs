//! Running a tool as a child process with a time limit, and scratch files for its input.

use std::io::{ErrorKind, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

/// The message appended to every error about a missing tool.
pub const INSTALL_HINT: &str =
    "run scripts/install-test-deps.sh (as root) to install the test tools";

/// What a finished child process left behind.
#[derive(Debug)]
pub(crate) struct Finished {
    /// Whether it exited with status 0.
    pub success: bool,
    /// Its exit status, for messages.
    pub status: String,
    /// Everything it wrote to stdout.
    pub stdout: String,
    /// Everything it wrote to stderr.
    pub stderr: String,
}

/// Runs `command` with `stdin` as its input, killing it once `limit` has passed.
///
/// A program that cannot be started is an error that names it and says how to install it.
pub(crate) fn run_with_limit(
    mut command: Command,
    stdin: &[u8],
    limit: Duration,
) -> Result<Finished, String> {
    let program = command.get_program().to_string_lossy().into_owned();
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().map_err(|e| match e.kind() {
        ErrorKind::NotFound => format!("`{program}` was not found: {INSTALL_HINT}"),
        _ => format!("could not start `{program}`: {e}"),
    })?;

    let stdout = child.stdout.take().map(read_in_background);
    let stderr = child.stderr.take().map(read_in_background);
    // Written from a thread so that a child which never reads cannot block the time limit.
    // A child that exits without reading all its input closes the pipe: its output says why.
    let writer = child.stdin.take().map(|mut pipe| {
        let input = stdin.to_vec();
        thread::spawn(move || {
            let _ = pipe.write_all(&input);
        })
    });

    let deadline = Instant::now() + limit;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(format!("waiting for `{program}` failed: {e}")),
        }
    };
    if let Some(writer) = writer {
        let _ = writer.join();
    }
    let stdout = stdout.map(join_reader).unwrap_or_default();
    let stderr = stderr.map(join_reader).unwrap_or_default();
    match status {
        Some(status) => Ok(Finished {
            success: status.success(),
            status: status.to_string(),
            stdout,
            stderr,
        }),
        None => Err(format!(
            "`{program}` was killed after running for {} s\nstdout:\n{stdout}\nstderr:\n{stderr}",
            limit.as_secs_f32()
        )),
    }
}

fn read_in_background(mut pipe: impl Read + Send + 'static) -> thread::JoinHandle<String> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

fn join_reader(reader: thread::JoinHandle<String>) -> String {
    reader
        .join()
        .unwrap_or_else(|_| String::from("<output reader panicked>"))
}

/// A file in the system's temporary folder with a name no other call (or process) uses,
/// removed when dropped.
pub(crate) struct ScratchFile {
    path: PathBuf,
}

impl ScratchFile {
    /// Writes `contents` to a new scratch file whose name ends with `suffix`.
    pub fn create(suffix: &str, contents: &[u8]) -> Result<Self, String> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let name = format!(
            "oneshader-harness-{}-{}-{nanos}{suffix}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed),
        );
        let path = std::env::temp_dir().join(name);
        std::fs::write(&path, contents)
            .map_err(|e| format!("could not write {}: {e}", path.display()))?;
        Ok(ScratchFile { path })
    }

    /// Where the file is.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for ScratchFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn child_gets_stdin_and_its_output_comes_back() {
        let mut command = Command::new("sh");
        command.args(["-c", "cat; echo oops >&2; exit 3"]);
        let finished = run_with_limit(command, b"hello", Duration::from_secs(20));
        let finished = finished.expect("sh runs");
        assert!(!finished.success);
        assert_eq!(finished.stdout, "hello");
        assert_eq!(finished.stderr, "oops\n");
    }

    #[test]
    fn child_past_its_limit_is_killed() {
        let started = Instant::now();
        let mut command = Command::new("sleep");
        command.arg("30");
        let result = run_with_limit(command, b"", Duration::from_millis(200));
        assert!(result.is_err_and(|e| e.contains("killed after")));
        assert!(started.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn missing_program_says_how_to_install() {
        let command = Command::new("oneshader-no-such-tool");
        let result = run_with_limit(command, b"", Duration::from_secs(5));
        assert!(result.is_err_and(|e| e.contains("install-test-deps.sh")));
    }

    #[test]
    fn scratch_files_are_distinct_and_removed() {
        let a = ScratchFile::create(".bin", b"a").expect("temp dir is writable");
        let b = ScratchFile::create(".bin", b"b").expect("temp dir is writable");
        assert_ne!(a.path(), b.path());
        let path = a.path().to_path_buf();
        assert_eq!(std::fs::read(&path).ok(), Some(b"a".to_vec()));
        drop(a);
        assert!(!path.exists());
    }
}
