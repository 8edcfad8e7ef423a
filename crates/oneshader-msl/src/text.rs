//! Small pieces of output text written without the formatting machinery.

/// Appends the decimal digits of `value` (without the formatting machinery, which costs
/// more than the digits for the `_eN` names written at nearly every expression).
pub(crate) fn push_decimal(out: &mut String, value: u64) {
    let mut divisor = 1;
    while value / divisor >= 10 {
        divisor *= 10;
    }
    loop {
        out.push(char::from(b'0' + (value / divisor % 10) as u8));
        if divisor == 1 {
            break;
        }
        divisor /= 10;
    }
}

#[cfg(test)]
mod tests {
    use super::push_decimal;

    #[test]
    fn decimals_match_the_formatter() {
        for value in [
            0,
            7,
            9,
            10,
            99,
            100,
            4_294_967_295,
            10_000_000_000_000_000_000,
            u64::MAX,
        ] {
            let mut out = String::from("_e");
            push_decimal(&mut out, value);
            assert_eq!(out, format!("_e{value}"));
        }
    }
}
