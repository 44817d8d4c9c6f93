/**
 * HTTP mechanics every service shares: RFC 9457 problem responses, the {@code X-Request-Id} filter and the body-size limit.
 */
package com.example.service.web;
