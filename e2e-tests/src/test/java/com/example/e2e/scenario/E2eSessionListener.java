package com.example.e2e.scenario;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Stops the shared system when the test session ends, while the JVM is still whole: the shutdown hooks
 * that would otherwise do it run concurrently and may delete a server's directory before its log is kept.
 */
public final class E2eSessionListener implements LauncherSessionListener {

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        E2eSystem.closeIfStarted();
    }
}
