// Loads a compose file with the Compose Specification's own loader (the one `docker compose`
// uses): schema, interpolation, anchors and merge keys, references between services. Then checks
// that every build's Dockerfile exists. Prints the resolved project; exits 1 on the first problem.
// Usage: compose-check <docker-compose.yml>
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/compose-spec/compose-go/v2/cli"
)

func main() {
	if len(os.Args) != 2 {
		fail(fmt.Errorf("usage: compose-check <docker-compose.yml>"))
	}
	opts, err := cli.NewProjectOptions([]string{os.Args[1]}, cli.WithOsEnv, cli.WithDotEnv, cli.WithName("cairn"))
	if err != nil {
		fail(err)
	}
	project, err := opts.LoadProject(context.Background())
	if err != nil {
		fail(err)
	}
	for name, service := range project.Services {
		if service.Build == nil {
			continue
		}
		dockerfile := filepath.Join(service.Build.Context, service.Build.Dockerfile)
		if _, err := os.Stat(dockerfile); err != nil {
			fail(fmt.Errorf("service %s builds from %s: %w", name, dockerfile, err))
		}
	}
	out, err := project.MarshalYAML()
	if err != nil {
		fail(err)
	}
	os.Stdout.Write(out)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
