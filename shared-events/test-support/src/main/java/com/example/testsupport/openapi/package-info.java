/**
 * A service's OpenAPI description generated from its code (springdoc), made to match what goes over the wire: in the
 * tests only, where it is compared with the published description the service serves.
 */
package com.example.testsupport.openapi;
