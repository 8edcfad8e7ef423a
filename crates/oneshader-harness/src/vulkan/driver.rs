//! Choosing a Vulkan driver: loading an ICD (installable client driver) straight into this
//! process, or the system's Vulkan loader.
//!
//! Loading the ICD library directly, instead of steering the loader with `VK_ICD_FILENAMES`,
//! lets lavapipe and SwiftShader run side by side in one test process without touching the
//! environment. The ICD's `vk_icdGetInstanceProcAddr` serves as `vkGetInstanceProcAddr`.

use std::ffi::{c_char, CStr};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use ash::vk;

use crate::process::INSTALL_HINT;

/// The Vulkan implementation a job runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VulkanDriver {
    /// Mesa's lavapipe (CPU), from `mesa-vulkan-drivers`: subgroup size 8 here.
    Lavapipe,
    /// Google's SwiftShader (CPU), shipped with Debian's `chromium`: subgroup size 4.
    SwiftShader,
    /// Whatever the system's Vulkan loader finds first (a real GPU, where there is one).
    System,
}

/// Overrides lavapipe's ICD manifest path.
pub const LAVAPIPE_ICD_ENV: &str = "ONESHADER_LAVAPIPE_ICD";
/// Overrides SwiftShader's ICD manifest path.
pub const SWIFTSHADER_ICD_ENV: &str = "ONESHADER_SWIFTSHADER_ICD";

const LAVAPIPE_ICD_DIRS: [&str; 2] = ["/usr/share/vulkan/icd.d", "/etc/vulkan/icd.d"];
const SWIFTSHADER_ICD_JSON: &str = "/usr/lib/chromium/vk_swiftshader_icd.json";

impl VulkanDriver {
    /// The driver's ICD manifest (JSON), or `None` for [`VulkanDriver::System`].
    ///
    /// Lavapipe's is `lvp_icd.<arch>.json` in `/usr/share/vulkan/icd.d`, SwiftShader's is
    /// `/usr/lib/chromium/vk_swiftshader_icd.json`; the environment variables
    /// [`LAVAPIPE_ICD_ENV`] and [`SWIFTSHADER_ICD_ENV`] override them.
    pub fn icd_manifest(self) -> Option<PathBuf> {
        match self {
            VulkanDriver::Lavapipe => Some(
                std::env::var_os(LAVAPIPE_ICD_ENV)
                    .map(PathBuf::from)
                    .unwrap_or_else(default_lavapipe_manifest),
            ),
            VulkanDriver::SwiftShader => Some(
                std::env::var_os(SWIFTSHADER_ICD_ENV)
                    .map(PathBuf::from)
                    .unwrap_or_else(|| PathBuf::from(SWIFTSHADER_ICD_JSON)),
            ),
            VulkanDriver::System => None,
        }
    }

    /// An [`ash::Entry`] for this driver. The driver's library is loaded once and never unloaded.
    pub(crate) fn entry(self) -> Result<ash::Entry, String> {
        static LAVAPIPE: OnceLock<Result<IcdLibrary, String>> = OnceLock::new();
        static SWIFTSHADER: OnceLock<Result<IcdLibrary, String>> = OnceLock::new();
        static SYSTEM: OnceLock<Result<ash::Entry, String>> = OnceLock::new();
        let icd = match self {
            VulkanDriver::Lavapipe => &LAVAPIPE,
            VulkanDriver::SwiftShader => &SWIFTSHADER,
            VulkanDriver::System => {
                return SYSTEM.get_or_init(load_system_loader).clone();
            }
        };
        let library = icd
            .get_or_init(|| match self.icd_manifest() {
                Some(manifest) => IcdLibrary::load(&manifest),
                None => Err(format!("{self:?} has no ICD manifest")),
            })
            .as_ref()
            .map_err(|e| format!("{self:?}: {e}"))?;
        // SAFETY: the function pointer comes from the ICD library, which lives in a static and
        // is never unloaded, so it stays valid for the whole process.
        Ok(unsafe { ash::Entry::from_static_fn(library.static_fn.clone()) })
    }
}

fn default_lavapipe_manifest() -> PathBuf {
    let preferred = format!("lvp_icd.{}.json", std::env::consts::ARCH);
    for dir in LAVAPIPE_ICD_DIRS {
        let candidate = Path::new(dir).join(&preferred);
        if candidate.exists() {
            return candidate;
        }
    }
    let any_lavapipe = LAVAPIPE_ICD_DIRS.iter().find_map(|dir| {
        std::fs::read_dir(dir).ok()?.flatten().find_map(|entry| {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            (name.starts_with("lvp_icd") && name.ends_with(".json")).then(|| entry.path())
        })
    });
    any_lavapipe.unwrap_or_else(|| Path::new(LAVAPIPE_ICD_DIRS[0]).join(preferred))
}

fn load_system_loader() -> Result<ash::Entry, String> {
    // SAFETY: loading the system's Vulkan loader; the Entry keeps the library loaded, and the
    // Entry itself is kept in a static for the rest of the process.
    unsafe { ash::Entry::load() }
        .map_err(|e| format!("could not load the system's Vulkan loader: {e}; {INSTALL_HINT}"))
}

/// A loaded ICD library and its `vk_icdGetInstanceProcAddr`.
struct IcdLibrary {
    _library: libloading::Library,
    static_fn: ash::StaticFn,
}

type NegotiateFn = unsafe extern "system" fn(*mut u32) -> vk::Result;

/// The newest loader/ICD interface version this harness knows. Version 5 lets the ICD take
/// the application's `apiVersion` at face value; nothing here relies on the rest.
const ICD_INTERFACE_VERSION: u32 = 5;

impl IcdLibrary {
    fn load(manifest: &Path) -> Result<Self, String> {
        let library_path = library_path_of(manifest)?;
        // SAFETY: the library is a Vulkan ICD named by its manifest; its initialisers are
        // those of any Vulkan driver.
        let library = unsafe { libloading::Library::new(&library_path) }.map_err(|e| {
            format!(
                "could not load the ICD library {} (from {}): {e}; {INSTALL_HINT}",
                library_path.display(),
                manifest.display()
            )
        })?;
        // SAFETY: the symbol's type is the one the Vulkan loader-ICD interface defines.
        let negotiate =
            unsafe { library.get::<NegotiateFn>(b"vk_icdNegotiateLoaderICDInterfaceVersion\0") };
        if let Ok(negotiate) = negotiate {
            let mut version = ICD_INTERFACE_VERSION;
            // SAFETY: `version` is a valid pointer for the call.
            let result = unsafe { negotiate(&mut version) };
            if result != vk::Result::SUCCESS {
                return Err(format!(
                    "{} refused the loader interface negotiation: {result:?}",
                    library_path.display()
                ));
            }
        }
        // SAFETY: the symbol's type is `PFN_vkGetInstanceProcAddr`, per the loader-ICD interface.
        let get_instance_proc_addr =
            unsafe { library.get::<vk::PFN_vkGetInstanceProcAddr>(b"vk_icdGetInstanceProcAddr\0") }
                .map(|symbol| *symbol)
                .map_err(|e| {
                    format!(
                        "{} has no vk_icdGetInstanceProcAddr: {e}",
                        library_path.display()
                    )
                })?;
        Ok(IcdLibrary {
            _library: library,
            static_fn: ash::StaticFn {
                get_instance_proc_addr,
            },
        })
    }
}

/// The `ICD.library_path` of an ICD manifest, resolved as the Vulkan loader does: a relative
/// path with a `/` is relative to the manifest's folder; a bare file name is left to `dlopen`.
fn library_path_of(manifest: &Path) -> Result<PathBuf, String> {
    let text = std::fs::read_to_string(manifest).map_err(|e| {
        format!(
            "could not read the ICD manifest {}: {e}; {INSTALL_HINT}",
            manifest.display()
        )
    })?;
    let json: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| format!("{} is not JSON: {e}", manifest.display()))?;
    let library = json
        .get("ICD")
        .and_then(|icd| icd.get("library_path"))
        .and_then(serde_json::Value::as_str)
        .ok_or_else(|| format!("{} has no ICD.library_path", manifest.display()))?;
    let library = Path::new(library);
    if library.is_absolute() || !library.to_string_lossy().contains('/') {
        Ok(library.to_path_buf())
    } else {
        let folder = manifest.parent().unwrap_or(Path::new("."));
        Ok(folder.join(library))
    }
}

/// Reads a fixed-size, NUL-terminated Vulkan string such as `deviceName`.
pub(crate) fn vk_string(chars: &[c_char]) -> String {
    // SAFETY: reinterpreting `c_char` (i8 or u8) as u8 of the same size.
    let bytes: &[u8] =
        unsafe { std::slice::from_raw_parts(chars.as_ptr().cast::<u8>(), chars.len()) };
    CStr::from_bytes_until_nul(bytes)
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|_| String::from_utf8_lossy(bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::process::ScratchFile;

    #[test]
    fn manifest_library_paths_resolve_like_the_loader() {
        let relative = ScratchFile::create(
            ".json",
            br#"{"ICD": {"library_path": "./libicd.so", "api_version": "1.0.5"}}"#,
        )
        .expect("temp dir is writable");
        let folder = relative.path().parent().expect("temp file has a folder");
        assert_eq!(
            library_path_of(relative.path()),
            Ok(folder.join("./libicd.so"))
        );

        let bare = ScratchFile::create(".json", br#"{"ICD": {"library_path": "libicd.so"}}"#)
            .expect("temp dir is writable");
        assert_eq!(library_path_of(bare.path()), Ok(PathBuf::from("libicd.so")));

        let broken = ScratchFile::create(".json", br#"{"ICD": {}}"#).expect("writable");
        assert!(library_path_of(broken.path()).is_err_and(|e| e.contains("library_path")));
    }

    #[test]
    fn missing_manifest_says_how_to_install() {
        let missing = library_path_of(Path::new("/nonexistent/icd.json"));
        assert!(missing.is_err_and(|e| e.contains("install-test-deps.sh")));
    }

    #[test]
    fn vk_strings_stop_at_nul() {
        let chars: Vec<c_char> = b"abc\0def".iter().map(|&b| b as c_char).collect();
        assert_eq!(vk_string(&chars), "abc");
    }
}
