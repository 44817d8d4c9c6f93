package com.example.service.web;

import java.util.regex.Pattern;

/** Turns a Java property path ({@code skuIds[0]}) into the JSON name clients see ({@code sku_ids[0]}). */
final class JsonNames {

    private static final Pattern CAMEL_HUMP = Pattern.compile("([a-z0-9])([A-Z])");

    private JsonNames() {
    }

    static String of(String javaPath) {
        return CAMEL_HUMP.matcher(javaPath).replaceAll("$1_$2").toLowerCase(java.util.Locale.ROOT);
    }
}
