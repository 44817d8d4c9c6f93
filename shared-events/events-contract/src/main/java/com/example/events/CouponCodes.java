package com.example.events;

import java.util.regex.Pattern;

/** The shape of a coupon code (docs/contract.md): 1 to 64 of {@code A-Z a-z 0-9 _ -}. */
public final class CouponCodes {

    private static final Pattern VALID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    private CouponCodes() {
    }

    public static boolean isValid(String code) {
        return code != null && VALID.matcher(code).matches();
    }
}
