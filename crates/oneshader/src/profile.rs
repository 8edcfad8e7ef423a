//! Shader profiles (`-T cs_6_0`): the stage and the shader model.

use std::fmt;
use std::str::FromStr;

use oneshader_ir::{codes, Diagnostic, ShaderStage};

/// What a profile compiles: one stage, or a library of entry points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProfileKind {
    /// `vs`: a vertex shader.
    Vertex,
    /// `ps`: a pixel shader.
    Pixel,
    /// `cs`: a compute shader.
    Compute,
    /// `lib`: every entry point marked with `[shader("...")]`.
    Library,
}

impl ProfileKind {
    /// The profile prefix: `vs`, `ps`, `cs` or `lib`.
    pub fn prefix(self) -> &'static str {
        match self {
            ProfileKind::Vertex => "vs",
            ProfileKind::Pixel => "ps",
            ProfileKind::Compute => "cs",
            ProfileKind::Library => "lib",
        }
    }

    /// The stage of a single-stage profile; `None` for a library.
    pub fn stage(self) -> Option<ShaderStage> {
        match self {
            ProfileKind::Vertex => Some(ShaderStage::Vertex),
            ProfileKind::Pixel => Some(ShaderStage::Fragment),
            ProfileKind::Compute => Some(ShaderStage::Compute),
            ProfileKind::Library => None,
        }
    }
}

/// A target profile such as `cs_6_0`: what to compile, at which shader model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Profile {
    /// The stage, or a library.
    pub kind: ProfileKind,
    /// Shader model major version (always 6).
    pub major: u8,
    /// Shader model minor version, `0` to [`Profile::MAX_MINOR`].
    pub minor: u8,
}

impl Profile {
    /// The highest shader model 6 minor version accepted (`_6_8`).
    pub const MAX_MINOR: u8 = 8;

    /// Parses `vs_6_0`, `ps_6_2`, `cs_6_6`, `lib_6_3` and the like.
    ///
    /// An unknown or malformed profile is an `OSH0323` error that says what is accepted.
    pub fn parse(text: &str) -> Result<Profile, Diagnostic> {
        let bad = |why: &str| {
            Diagnostic::error(
                codes::BAD_PROFILE,
                None,
                format!("The profile '{text}' is not valid: {why}."),
            )
            .with_help(format!(
                "Use vs_6_N, ps_6_N, cs_6_N or lib_6_N, with N from 0 to {}; wave intrinsics need shader model 6.0 or later.",
                Profile::MAX_MINOR
            ))
        };
        let mut parts = text.split('_');
        let (Some(prefix), Some(major), Some(minor), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(bad("a profile has the form stage_major_minor"));
        };
        let kind = match prefix {
            "vs" => ProfileKind::Vertex,
            "ps" => ProfileKind::Pixel,
            "cs" => ProfileKind::Compute,
            "lib" => ProfileKind::Library,
            _ => {
                return Err(bad(&format!(
                    "'{prefix}' is not a stage oneshader compiles"
                )))
            }
        };
        let (Ok(major), Ok(minor)) = (major.parse::<u8>(), minor.parse::<u8>()) else {
            return Err(bad("the shader model is not a number"));
        };
        if major != 6 || minor > Profile::MAX_MINOR {
            return Err(bad(&format!(
                "shader model {major}.{minor} is not supported"
            )));
        }
        Ok(Profile { kind, major, minor })
    }
}

/// Parses like [`Profile::parse`].
impl FromStr for Profile {
    type Err = Diagnostic;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Profile::parse(text)
    }
}

/// Prints the profile as written: `cs_6_0`.
impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}_{}_{}", self.kind.prefix(), self.major, self.minor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_each_stage_and_model() {
        let cs = Profile::parse("cs_6_0").expect("cs_6_0 is valid");
        assert_eq!(cs.kind, ProfileKind::Compute);
        assert_eq!((cs.major, cs.minor), (6, 0));
        assert_eq!(cs.kind.stage(), Some(ShaderStage::Compute));
        let lib = Profile::parse("lib_6_3").expect("lib_6_3 is valid");
        assert_eq!(lib.kind.stage(), None);
        assert_eq!(lib.to_string(), "lib_6_3");
        assert_eq!(
            Profile::parse("ps_6_8").map(|p| p.kind),
            Ok(ProfileKind::Pixel)
        );
        assert_eq!(
            Profile::parse("vs_6_1").map(|p| p.kind),
            Ok(ProfileKind::Vertex)
        );
    }

    #[test]
    fn bad_profiles_are_osh0323() {
        for text in [
            "", "cs", "cs_6", "cs_5_1", "gs_6_0", "cs_6_x", "cs_6_9", "cs_6_0_1",
        ] {
            let error = Profile::parse(text).expect_err(text);
            assert_eq!(error.code, codes::BAD_PROFILE, "{text}");
            assert!(error.is_error());
            assert!(error.message.contains(&format!("'{text}'")), "{text}");
        }
    }
}
