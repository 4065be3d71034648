package cli

import (
	"fmt"
	"io"

	"kneeboard/simulator/internal/profile"
)

const profileHelp = `usage:
  devsim profile check (--profile-file PATH | --profile NAME)
      validate a profile: exit 0 when valid, 2 with a message naming the field when not
  devsim profile show [--profile NAME]
      print a built-in profile's JSON (a starting point for your own)
`

func profileCommand(args []string, stdout io.Writer) (int, error) {
	if len(args) == 0 {
		return ExitOK, badArgs("missing subcommand (check or show)")
	}
	c := newCommand("profile "+args[0], profileHelp)
	var prof profileFlags
	prof.register(c.fs)
	switch args[0] {
	case "check":
		if handled, err := c.parse(args[1:], stdout); handled || err != nil {
			return ExitOK, err
		}
		if !c.set["profile-file"] && !c.set["profile"] {
			return ExitOK, badArgs("give --profile-file PATH (or --profile NAME)")
		}
		p, _, err := prof.load(c.set)
		if err != nil {
			return ExitOK, err
		}
		acks := "no acks"
		if p.Acks {
			acks = fmt.Sprintf("acks type 0x%02x", p.ReportReply.Type)
		}
		fmt.Fprintf(stdout, "profile %s: valid (login %d bytes type 0x%02x, report %d bytes type 0x%02x, login reply type 0x%02x, %s)\n",
			p.Name, len(p.Login.Frame), p.Login.Type, len(p.Report.Frame), p.Report.Type, p.LoginReply.Type, acks)
	case "show":
		if handled, err := c.parse(args[1:], stdout); handled || err != nil {
			return ExitOK, err
		}
		doc, err := profile.BuiltinJSON(prof.name)
		if err != nil {
			return ExitOK, badArgs("--profile: %v", err)
		}
		_, _ = stdout.Write(doc)
	case "-h", "--help", "help":
		fmt.Fprint(stdout, profileHelp)
	default:
		return ExitOK, badArgs("unknown profile subcommand %q (want check or show)", args[0])
	}
	return ExitOK, nil
}
