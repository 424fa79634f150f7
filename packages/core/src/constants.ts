/** The first port the IDE's built-in web server listens on; running IDEs take the ports above it. */
export const IDE_PORT_START = 63342;
