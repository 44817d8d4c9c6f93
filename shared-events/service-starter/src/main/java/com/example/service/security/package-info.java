/**
 * Who may call a service: every endpoint but the probes and the API description wants a bearer token (JWT) from
 * the issuer configured through Spring Boot's resource-server properties; refusals are problems; {@link
 * com.example.service.security.Caller} tells a controller whose token it is.
 */
package com.example.service.security;
