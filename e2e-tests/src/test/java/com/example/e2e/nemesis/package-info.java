/**
 * The nemesis: faults injected into a running topology on a schedule or at random, each recorded with the proof that it really happened.
 */
package com.example.e2e.nemesis;
