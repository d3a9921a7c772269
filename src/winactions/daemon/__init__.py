"""The session daemon and its thin client: a front end that serves `winctl` command lines and
structured calls from a long-lived `Desktop`, and the standard-library-only client every
`winctl` invocation uses to reach it."""
