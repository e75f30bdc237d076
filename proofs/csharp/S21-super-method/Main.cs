using System;

public class Animal
{
    public virtual void Speak()
    {
        Console.WriteLine("Animal.Speak");
    }
}

public class Dog : Animal
{
    public override void Speak()
    {
        Console.WriteLine("Dog.Speak");
    }
}

public class Puppy : Dog
{
    public override void Speak()
    {
        base.Speak();
        Console.WriteLine("Puppy.Speak");
    }
}

public class Program
{
    public static void Main()
    {
        Puppy p = new Puppy();
        p.Speak();
    }
}
