package com.example.service.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Fault injection ({@code faults.*}, named by the public contract). Off unless set.
 *
 * @param crashAt comma-separated crash points, each {@code point} or {@code point@N} (halt the Nth time the point
 *                is reached); only points this process declares are accepted
 */
@ConfigurationProperties("faults")
public record FaultProperties(@DefaultValue("") String crashAt) {
}
